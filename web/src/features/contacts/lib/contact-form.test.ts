import { describe, expect, it } from "vitest";
import type { ContactAnswer, CustomFieldAnswer } from "../../../../../schema/api-types";
import { buildContactWrite, contactFormDefaults, contactFormSchema, editableFields } from "./contact-form";

const AGE = "0b7d2a52-1c0e-4a6f-9c39-7b1d9b2f0a11";
const WHEN = "1c8e3b63-2d1f-4b70-8d4a-8c2e0c3a1b22";
const TAG = "2d9f4c74-3e20-4c81-9e5b-9d3f1d4b2c33";

const field = (over: Partial<CustomFieldAnswer>): CustomFieldAnswer => ({
  id: AGE,
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
  field({ id: "default:email", kind: "default", type: "email", key: "email", readOnly: true }),
  field({}),
  field({ id: WHEN, name: "Visit", key: "visit", type: "datetime" }),
  field({ id: "double", key: "double", formula: "{{age}} * 2" }),
];
const contact: ContactAnswer = {
  id: "c1",
  name: "Ana",
  phone: "+5511999990000",
  email: null,
  document: null,
  image: null,
  tags: [{ id: TAG, name: "VIP", color: "#ff0000" }],
  fields: { [AGE]: "30", [WHEN]: "1704067200000" },
  crmColumnId: null,
  lastMessageAt: null,
  createdAt: 1,
  updatedAt: 1,
};

describe("contact form", () => {
  it("edits per-contact, non-computed fields only", () => {
    expect(editableFields(FIELDS).map((f) => f.id)).toEqual([AGE, WHEN]);
  });

  it("starts from the contact, datetimes on the company's clock", () => {
    expect(contactFormDefaults(contact, FIELDS, "America/Sao_Paulo")).toEqual({
      name: "Ana",
      phone: "+5511999990000",
      email: "",
      document: "",
      tags: [TAG],
      fields: { [AGE]: "30", [WHEN]: "2023-12-31T21:00" },
    });
  });

  it("checks with the worker's reason codes", () => {
    const schema = contactFormSchema(FIELDS, "UTC");
    const result = schema.safeParse({ name: " ", phone: "12", email: "nope", document: "123", tags: [], fields: { [AGE]: "abc", [WHEN]: "" } });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toEqual([
      ["name", "required"],
      ["phone", "invalid_phone"],
      ["email", "invalid_email"],
      ["document", "invalid_document"],
      [`fields.${AGE}`, "invalid_number"],
    ]);
    expect(schema.safeParse({ name: "Ana", phone: "(11) 99999-0000", email: "", document: "529.982.247-25", tags: [], fields: {} }).success).toBe(true);
  });

  it("sends only what changed, and only what the user may change", () => {
    const initial = contactFormDefaults(contact, FIELDS, "UTC");
    const edited = { ...initial, email: " ana@example.com ", fields: { ...initial.fields, [AGE]: "" } };
    expect(buildContactWrite(edited, initial, { tags: true, fields: true }, false)).toEqual({
      name: "Ana",
      phone: "+5511999990000",
      email: "ana@example.com",
      document: null,
      fields: { [AGE]: null },
    });
    expect(buildContactWrite({ ...edited, tags: [] }, initial, { tags: false, fields: false }, false)).not.toHaveProperty("tags");
    expect(buildContactWrite({ ...edited, tags: [] }, initial, { tags: true, fields: false }, false)).toMatchObject({ tags: [] });
  });

  it("a new contact sends its tags and filled fields", () => {
    const initial = contactFormDefaults(null, FIELDS, "UTC");
    const body = buildContactWrite({ ...initial, name: "Bia", phone: "11999990000", tags: [TAG], fields: { [AGE]: "7", [WHEN]: "" } }, initial, { tags: true, fields: true }, true);
    expect(body).toEqual({ name: "Bia", phone: "11999990000", email: null, document: null, tags: [TAG], fields: { [AGE]: "7" } });
  });
});
