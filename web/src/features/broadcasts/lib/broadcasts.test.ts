import { describe, expect, it } from "vitest";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { FILTER_ITEMS, broadcastFilterSchema } from "../../../../../schema/validation/broadcasts";
import { completeFilters, conditionsFor, filterableFields, fromApiFilter, newFilter, toApiFilter, valueInputFor, withField, withItem } from "./filters";
import { fromScheduledDate, scheduleInstant, toScheduledDate } from "./schedule";
import { applyProgress, progressPercent } from "./progress";
import { editableFully, toBroadcastBody } from "./form";

const field = (id: string, type: CustomFieldAnswer["type"], kind: CustomFieldAnswer["kind"] = "user", key = id, formula: string | null = null): CustomFieldAnswer => ({
  id,
  name: id,
  key,
  type,
  kind,
  formula,
  value: null,
  readOnly: kind === "default",
  createdAt: null,
});

const TAG = "0190f0a0-0000-7000-8000-000000000001";
const FIELD = "0190f0a0-0000-7000-8000-000000000002";
const COLUMN = "0190f0a0-0000-7000-8000-000000000003";

describe("filters builder: the conditions each item offers (issue 10)", () => {
  it("offers has tag / has not tag for tags, before / after for the created date, is / is not for CRM column and channel", () => {
    expect(conditionsFor("tag")).toEqual(["has_tag", "has_not_tag"]);
    expect(conditionsFor("created_date")).toEqual(["before", "after"]);
    expect(conditionsFor("crm_column")).toEqual(["is", "is_not"]);
    expect(conditionsFor("channel")).toEqual(["is", "is_not"]);
  });

  it("narrows a custom field's conditions by its type: contains for text, greater/less for numbers, before/after for dates", () => {
    expect(conditionsFor("custom_field", "text")).toEqual(["is", "is_not", "contains"]);
    expect(conditionsFor("custom_field", "number")).toEqual(["is", "is_not", "greater", "less"]);
    expect(conditionsFor("custom_field", "date")).toEqual(["is", "before", "after"]);
    expect(conditionsFor("custom_field", "datetime")).toEqual(["before", "after"]);
    expect(conditionsFor("custom_field", "number")).not.toContain("contains");
    expect(conditionsFor("custom_field", "text")).not.toContain("greater");
  });

  it("every condition it offers is one the API accepts for that item", () => {
    for (const item of FILTER_ITEMS) {
      const draft = newFilter(item);
      expect(conditionsFor(item)).toContain(draft.condition);
      for (const condition of conditionsFor(item)) {
        const sample = { item, condition, tag: TAG, fieldId: FIELD, value: item === "channel" ? "sandbox" : item === "crm_column" ? COLUMN : "2026-01-01" };
        const issues = broadcastFilterSchema.safeParse(sample).error?.issues ?? [];
        expect(issues.filter((issue) => issue.message === "invalid_condition"), `${item} ${condition}`).toEqual([]);
      }
    }
  });

  it("gives each item the input its value needs", () => {
    expect(valueInputFor("tag")).toBe("tag");
    expect(valueInputFor("crm_column")).toBe("crm_column");
    expect(valueInputFor("channel")).toBe("channel");
    expect(valueInputFor("created_date")).toBe("date");
    expect(valueInputFor("custom_field", "number")).toBe("number");
    expect(valueInputFor("custom_field", "date")).toBe("date");
    expect(valueInputFor("custom_field", "datetime")).toBe("datetime");
    expect(valueInputFor("custom_field", "email")).toBe("text");
  });

  it("a new item starts a fresh row; another field keeps the condition only when it fits and the value only for the same kind of input", () => {
    const tagged = { ...newFilter("tag"), tag: TAG };
    expect(withItem(tagged, "created_date")).toEqual({ item: "created_date", condition: "before" });
    expect(withItem(tagged, "tag")).toBe(tagged);
    const onText = { item: "custom_field" as const, condition: "contains" as const, fieldId: "a", value: "abc" };
    expect(withField(onText, { id: "n", type: "number" }, { type: "text" })).toEqual({ item: "custom_field", condition: "is", fieldId: "n" });
    expect(withField({ ...onText, condition: "is" }, { id: "e", type: "email" }, { type: "text" })).toEqual({ item: "custom_field", condition: "is", fieldId: "e", value: "abc" });
  });

  it("sends only complete rows, with only the parts the item uses, and counts the others as incomplete", () => {
    const drafts = [
      { item: "tag" as const, condition: "has_tag" as const, tag: TAG, value: "left over" },
      { item: "tag" as const, condition: "has_not_tag" as const },
      { item: "channel" as const, condition: "is" as const, value: "sandbox", tag: TAG },
      { item: "created_date" as const, condition: "after" as const, value: "not a date" },
      { item: "custom_field" as const, condition: "greater" as const, fieldId: FIELD, value: " 10 " },
    ];
    const { filters, incomplete } = completeFilters(drafts);
    expect(filters).toEqual([
      { item: "tag", condition: "has_tag", tag: TAG },
      { item: "channel", condition: "is", value: "sandbox" },
      { item: "custom_field", condition: "greater", fieldId: FIELD, value: "10" },
    ]);
    expect(incomplete).toBe(2);
    expect(toApiFilter({ item: "crm_column", condition: "is", value: COLUMN })).toEqual({ item: "crm_column", condition: "is", value: COLUMN });
    expect(fromApiFilter({ item: "tag", condition: "has_tag", tag: TAG })).toEqual({ item: "tag", condition: "has_tag", tag: TAG });
  });

  it("compares the company's own fields and the contact's built-in columns, never formulas or bot values", () => {
    const fields = [field("default:email", "email", "default", "email"), field("default:last_message", "text", "default", "last_message"), field("f1", "number"), field("f2", "number", "user", "f2", "f1*2"), field("b", "text", "bot")];
    expect(filterableFields(fields).map((f) => f.id)).toEqual(["default:email", "f1"]);
  });
});

describe("schedule in the company's time zone (spec §5 scheduledDate)", () => {
  const NOW = Date.parse("2026-11-23T12:00:00Z");

  it("reads the date and time on the company's wall clock", () => {
    expect(toScheduledDate({ date: "2026-12-01", time: "09:00" }, "America/Sao_Paulo", NOW)).toEqual({ value: "2026-12-01T12:00:00.000Z" });
    expect(toScheduledDate({ date: "2026-12-01", time: "09:00" }, "Europe/Lisbon", NOW)).toEqual({ value: "2026-12-01T09:00:00.000Z" });
    expect(toScheduledDate({ date: "2026-07-01", time: "09:00" }, "Europe/Lisbon", Date.parse("2026-06-01T00:00:00Z"))).toEqual({ value: "2026-07-01T08:00:00.000Z" });
  });

  it("refuses a moment earlier than now, an impossible date and a half-filled schedule; empty means no schedule", () => {
    expect(toScheduledDate({ date: "2026-11-23", time: "08:59" }, "America/Sao_Paulo", NOW)).toEqual({ problem: "invalid_scheduled_date" });
    expect(toScheduledDate({ date: "2026-11-23", time: "09:01" }, "America/Sao_Paulo", NOW)).toEqual({ value: "2026-11-23T12:01:00.000Z" });
    expect(toScheduledDate({ date: "2026-02-30", time: "10:00" }, "UTC", NOW)).toEqual({ problem: "invalid_scheduled_date" });
    expect(toScheduledDate({ date: "2026-12-01", time: "" }, "UTC", NOW)).toEqual({ problem: "required" });
    expect(toScheduledDate({ date: "", time: "" }, "UTC", NOW)).toEqual({ value: null });
    expect(scheduleInstant({ date: "2026-12-01", time: "9:00" }, "UTC")).toBeNull();
  });

  it("shows a saved schedule back on the company's wall clock", () => {
    expect(fromScheduledDate(Date.parse("2026-12-01T12:00:00Z"), "America/Sao_Paulo")).toEqual({ date: "2026-12-01", time: "09:00" });
    expect(fromScheduledDate(Date.parse("2026-12-01T23:30:00Z"), "Asia/Tokyo")).toEqual({ date: "2026-12-02", time: "08:30" });
    expect(fromScheduledDate(null, "UTC")).toEqual({ date: "", time: "" });
  });
});

describe("live progress of the list", () => {
  const item = {
    id: "b1",
    name: "Promo",
    status: "started" as const,
    delay: "very_short" as const,
    connection: { id: "c", name: "C", channel: "sandbox" },
    flow: { id: "f", name: "F" },
    scheduledDate: null,
    startedAt: 1,
    finishedAt: null,
    counts: { total: 10, sent: 2, rejected: 1, pending: 7 },
    createdAt: 1,
    updatedAt: 1,
  };

  it("is the share of recipients sent or rejected; unknown before the recipients are listed", () => {
    expect(progressPercent({ total: 10, sent: 2, rejected: 1, pending: 7 })).toBe(30);
    expect(progressPercent({ total: 0, sent: 0, rejected: 0, pending: 0 })).toBe(100);
    expect(progressPercent({ total: null, sent: 0, rejected: 0, pending: 0 })).toBeNull();
  });

  it("applies a hub update to the row it names, and moves a finished broadcast out of the current tab", () => {
    const pages = { pages: [{ results: [item], cursor: null, total: 1 }], pageParams: [null] };
    const counts = { total: 10, sent: 5, rejected: 1, pending: 4 };
    const updated = applyProgress(pages, { id: "b1", status: "started", counts }, "current");
    expect(updated.changed).toBe(true);
    expect(updated.data.pages[0]?.results[0]?.counts).toEqual(counts);
    const other = applyProgress(pages, { id: "b2", status: "started", counts }, "current");
    expect(other.changed).toBe(false);
    expect(other.unknown).toBe(true);
    const done = applyProgress(pages, { id: "b1", status: "done", counts: { total: 10, sent: 9, rejected: 1, pending: 0 } }, "current");
    expect(done.data.pages[0]?.results).toEqual([]);
    expect(done.data.pages[0]?.total).toBe(0);
  });
});

describe("the form's body (POST/PUT /api/broadcasts)", () => {
  const NOW = Date.parse("2026-11-23T12:00:00Z");
  const CONNECTION = "0190f0a0-0000-7000-8000-00000000000a";
  const FLOW = "0190f0a0-0000-7000-8000-00000000000b";
  const base = {
    name: " Promo ",
    connectionId: CONNECTION,
    flowId: FLOW,
    delay: "very_short" as const,
    schedule: { date: "2026-12-01", time: "09:00" },
    filters: [{ item: "tag" as const, condition: "has_tag" as const, tag: TAG }],
    template: { name: "oferta", language: "pt_BR", variables: [{ component: "body" as const, index: 1, placeholder: "1", source: "contact" as const, field: "first_name" as const, fieldId: "", text: "" }] },
  };
  const options = { status: null, timeZone: "America/Sao_Paulo", now: NOW, channel: "whatsapp-cloud" };

  it("sends the schedule as an instant of the company's wall clock, the filters and the mapped template", () => {
    const result = toBroadcastBody(base, options);
    expect(result.problems).toEqual([]);
    expect(result.body).toEqual({
      name: "Promo",
      connectionId: CONNECTION,
      flowId: FLOW,
      delay: "very_short",
      scheduledDate: "2026-12-01T12:00:00.000Z",
      filters: [{ item: "tag", condition: "has_tag", tag: TAG }],
      template: { name: "oferta", language: "pt_BR", variables: [{ component: "body", index: 1, source: { type: "contact", field: "first_name" } }] },
    });
    // A sandbox connection has no templates: none is sent.
    expect(toBroadcastBody(base, { ...options, channel: "sandbox" }).body).toMatchObject({ template: null });
  });

  it("names each problem's field: a past schedule, an unfinished filter, no flow, no connection", () => {
    const result = toBroadcastBody(
      { ...base, connectionId: "", flowId: "", schedule: { date: "2026-11-01", time: "09:00" }, filters: [...base.filters, { item: "channel", condition: "is" }] },
      options,
    );
    expect(result.body).toBeNull();
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: "schedule.date", code: "invalid_scheduled_date" },
        { path: "filters.1.value", code: "required" },
        { path: "flowId", code: "flow_required" },
        { path: "connectionId", code: "required" },
      ]),
    );
  });

  it("sends only the name and the delay of a started or paused broadcast (the API refuses the rest)", () => {
    expect(toBroadcastBody({ ...base, flowId: "" }, { ...options, status: "started" })).toEqual({ full: false, body: { name: "Promo", delay: "very_short" }, problems: [] });
    expect(editableFully("paused")).toBe(false);
    expect(editableFully("waiting")).toBe(true);
  });
});
