/**
 * Issue 9 "Uniqueness": a 409 `name_in_use` (fields `{ name: "name_in_use" }`, worker/routes/
 * unique-names.test.ts) is shown on the name field of the quick message, CRM column, folder,
 * keyword and connection forms ('This name is already in use.' under the field), not as a banner.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { ApiError } from "./api";
import { fieldErrorMessage } from "./error-messages";
import { applyServerErrors } from "./form-errors";
import { activateLocale } from "./i18n";

/** The forms whose names must be unique, and how each hands server errors to its fields. */
const FORMS = [
  "features/quick-messages/components/quick-message-sheet.tsx",
  "features/crm/components/column-dialog.tsx",
  "features/flows/components/folder-dialogs.tsx",
  "features/keywords/components/keyword-sheet.tsx",
  "features/connections/components/connection-form-sheet.tsx",
];

describe("name_in_use lands on the name field (issue 9)", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });

  it("a 409 naming `name` sets the field's error and no form-level message", () => {
    const set: { field: string; message: string | undefined }[] = [];
    const error = new ApiError(409, "name_in_use", "This name is already in use.", { name: "name_in_use" });
    const placed = applyServerErrors<{ name: string; text: string }>((field, value) => set.push({ field, message: value.message }), error, ["name", "text"]);
    expect(placed).toBe(true);
    expect(set).toEqual([{ field: "name", message: "name_in_use" }]);
    expect(i18n._(fieldErrorMessage("name_in_use"))).toBe("This name is already in use.");
  });

  it.each(FORMS)("%s hands the server's `name` error to its name field", (file) => {
    const source = readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), "utf8");
    const direct = /applyServerErrors\(form\.setError, error, \[[^\]]*"name"/.test(source);
    const throughHook = /useServerErrors\(form, (\w+)/.exec(source);
    const hookFields = throughHook ? new RegExp(`const ${throughHook[1]} = \\[[^\\]]*"name"`).test(source) : false;
    expect(direct || hookFields, file).toBe(true);
  });
});
