import { describe, expect, it } from "vitest";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { EMPTY_FILTER, filterableFields, isFiltering, listQueryParams, toApiFilter } from "./contact-filter";
import { availableColumns, DEFAULT_COLUMNS, parseStoredColumns, toggleColumn, visibleColumns } from "./columns";
import { assignTarget, hasXlsxExtension, importedCount, initialMapping, jobFailureMessage, jobPercent, mappingProblems, toStartMapping } from "./import-mapping";

const FIELD_A = "0b7d2a52-1c0e-4a6f-9c39-7b1d9b2f0a11";
const FIELD_B = "1c8e3b63-2d1f-4b70-8d4a-8c2e0c3a1b22";
const TAG_1 = "2d9f4c74-3e20-4c81-9e5b-9d3f1d4b2c33";
const TAG_2 = "3ea05d85-4f31-4d92-af6c-ae4a2e5c3d44";

const field = (over: Partial<CustomFieldAnswer>): CustomFieldAnswer => ({
  id: FIELD_A,
  name: "Age",
  key: "age",
  type: "number",
  kind: "user",
  formula: null,
  value: null,
  readOnly: false,
  createdAt: 1,
  ...over,
});

const FIELDS = [
  field({ id: "default:email", key: "email", type: "email", kind: "default", readOnly: true, createdAt: null }),
  field({ id: FIELD_A }),
  field({ id: FIELD_B, name: "Birthday", key: "birthday", type: "date" }),
  field({ id: "f-bot", name: "Store", key: "store", type: "text", kind: "bot" }),
  field({ id: "f-formula", name: "Double", key: "double", formula: "{{age}} * 2" }),
];

describe("filter → query", () => {
  it("only per-contact, non-computed fields filter", () => {
    expect(filterableFields(FIELDS).map((f) => f.id)).toEqual([FIELD_A, FIELD_B]);
  });

  it("builds the list's query string", () => {
    const filter = toApiFilter(
      { search: "  ana ", tags: [TAG_1, TAG_2, TAG_1], fields: [{ fieldId: FIELD_A, value: "3,5" }, { fieldId: FIELD_B, value: "2024-02-30" }] },
      FIELDS,
    );
    expect(filter).toEqual({ search: "ana", tags: [TAG_1, TAG_2], fields: [{ fieldId: FIELD_A, value: "3,5" }] });
    expect(listQueryParams(filter, "abc", 30)).toEqual({ limit: 30, search: "ana", tags: `${TAG_1},${TAG_2}`, [`field.${FIELD_A}`]: "3,5", cursor: "abc" });
    expect(isFiltering(filter)).toBe(true);
  });

  it("leaves out what the API would refuse", () => {
    const filter = toApiFilter({ search: "x".repeat(41), tags: [], fields: [{ fieldId: FIELD_A, value: "abc" }, { fieldId: "f-bot", value: "x" }] }, FIELDS);
    expect(filter).toEqual({});
    expect(isFiltering(filter)).toBe(false);
    expect(listQueryParams(toApiFilter(EMPTY_FILTER, FIELDS), null, 50)).toEqual({ limit: 50 });
  });
});

describe("column chooser", () => {
  const available = availableColumns(FIELDS);

  it("offers the fixed columns and every per-contact field", () => {
    expect(available).toEqual(["phone", "email", "document", "tags", "createdAt", "lastMessageAt", `field:${FIELD_A}`, `field:${FIELD_B}`]);
  });

  it("starts with the defaults and survives bad storage", () => {
    expect(parseStoredColumns(null)).toEqual(DEFAULT_COLUMNS);
    expect(parseStoredColumns("{oops")).toEqual(DEFAULT_COLUMNS);
    expect(parseStoredColumns('{"a":1}')).toEqual(DEFAULT_COLUMNS);
    expect(parseStoredColumns('["email", 3, "bogus", "email", "field:x"]')).toEqual(["email", "field:x"]);
    expect(parseStoredColumns("[]")).toEqual([]);
  });

  it("shows chosen columns in the chooser's order, dropping gone fields", () => {
    const chosen = toggleColumn(toggleColumn(["tags", "phone", "field:gone"], `field:${FIELD_B}`, true), "phone", false);
    expect(chosen).toEqual(["tags", "field:gone", `field:${FIELD_B}`]);
    expect(visibleColumns(chosen, available)).toEqual(["tags", `field:${FIELD_B}`]);
  });
});

describe("import mapping", () => {
  const headers = ["Nome", "Telefone", "Celular", "Idade", "Tags", "Grupo"];
  const fieldIds = new Set([FIELD_A]);

  it("preselects the suggestion, dropping unknown fields and repeats", () => {
    const mapping = initialMapping(headers, { "0": "name", "1": "phone", "2": "phone", "3": `field:${FIELD_A}`, "4": "tags", "5": `field:${FIELD_B}` }, fieldIds);
    expect(mapping).toEqual({ "0": "name", "1": "phone", "2": "ignore", "3": `field:${FIELD_A}`, "4": "tags", "5": "ignore" });
    expect(mappingProblems(mapping)).toEqual([]);
    expect(toStartMapping(mapping)).toEqual({ "0": "name", "1": "phone", "3": `field:${FIELD_A}`, "4": "tags" });
  });

  it("requires a phone column", () => {
    const mapping = initialMapping(headers, { "0": "name" }, fieldIds);
    expect(mappingProblems(mapping)).toEqual(["phone_required"]);
  });

  it("moves a single target instead of duplicating it; tags may repeat", () => {
    let mapping = initialMapping(headers, { "1": "phone" }, fieldIds);
    mapping = assignTarget(mapping, "2", "phone");
    expect(mapping["1"]).toBe("ignore");
    expect(mapping["2"]).toBe("phone");
    mapping = assignTarget(assignTarget(mapping, "4", "tags"), "5", "tags");
    expect([mapping["4"], mapping["5"]]).toEqual(["tags", "tags"]);
    expect(mappingProblems(mapping)).toEqual([]);
    expect(mappingProblems({ "0": "phone", "1": "email", "2": "email" })).toEqual(["duplicate_target"]);
  });

  it("reads job progress", () => {
    expect(jobPercent({ status: "running", processed: 0, total: 0 })).toBeNull();
    expect(jobPercent({ status: "running", processed: 50, total: 200 })).toBe(25);
    expect(jobPercent({ status: "done", processed: 3, total: 0 })).toBe(100);
    expect(importedCount({ processed: 10, errors: 3 })).toBe(7);
  });

  it("checks the extension", () => {
    expect(hasXlsxExtension("contacts.XLSX")).toBe(true);
    expect(hasXlsxExtension("contacts.xls")).toBe(false);
    expect(hasXlsxExtension("contacts.csv")).toBe(false);
  });
});

describe("a failed import's message", () => {
  it("comes from its code when the web knows it, never from the reader's own words", () => {
    expect(jobFailureMessage({ errorCode: "damaged" })).not.toBeNull();
    expect(jobFailureMessage({ errorCode: "zip_bomb" })).not.toBeNull();
    expect(jobFailureMessage({ errorCode: "file_missing" })).not.toBeNull();
    // An unknown code or none: the job's own sentence is shown instead.
    expect(jobFailureMessage({ errorCode: "import_failed" })).toBeNull();
    expect(jobFailureMessage({ errorCode: null })).toBeNull();
  });
});
