/**
 * Issue 9: "A 300-character tag name is refused with a field error, not silently cut to 40". A
 * `maxLength` on a name input makes the browser drop what is typed or pasted past it, so the form's
 * zod rule (`too_long`, shown under the field) never sees the long name and a cut one is saved.
 * The name inputs of the register forms therefore carry no `maxLength`; the schema decides.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { crmColumnInput, customFieldInput, quickMessageInput, tagInput } from "../../../schema/validation/contacts";
import { folderInput, keywordInput } from "../../../schema/validation/flows";

const FORMS = [
  "features/registers/components/tag-sheet.tsx",
  "features/registers/components/custom-field-sheet.tsx",
  "features/crm/components/column-dialog.tsx",
  "features/quick-messages/components/quick-message-sheet.tsx",
  "features/keywords/components/keyword-sheet.tsx",
  "features/flows/components/folder-dialogs.tsx",
];

describe("name inputs never cut what is typed", () => {
  it.each(FORMS)("%s: the name input has no maxLength", (file) => {
    const source = readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), "utf8");
    const inputs = source.split("\n").filter((line) => line.includes('register("name")'));
    expect(inputs.length, file).toBeGreaterThan(0);
    for (const line of inputs) expect(line, file).not.toMatch(/maxLength/);
  });

  it("a 300-character name is refused with too_long on `name` by every schema behind those forms", () => {
    const name = "x".repeat(300);
    const cases = [
      tagInput.safeParse({ name, color: "#000000" }),
      customFieldInput.safeParse({ name, type: "text", kind: "user" }),
      crmColumnInput.safeParse({ name }),
      quickMessageInput.safeParse({ name, text: "Olá" }),
      keywordInput.safeParse({ name, turnOn: true, rules: [{ type: "is", words: ["oi"] }], flowId: "00000000-0000-4000-8000-000000000000" }),
      folderInput.safeParse({ name }),
    ];
    for (const parsed of cases) {
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.find((issue) => issue.path[0] === "name")?.message).toBe("too_long");
    }
  });
});
