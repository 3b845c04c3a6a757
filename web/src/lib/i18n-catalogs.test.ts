import { describe, expect, it } from "vitest";
import { checkCatalogs } from "../../scripts/i18n-check";
import { DEFAULT_LOCALE as SCHEMA_DEFAULT, LOCALES as SCHEMA_LOCALES } from "../../../schema/validation/common";
import { DEFAULT_LOCALE, LOCALES } from "./i18n";

/**
 * Fails when a message used in web/src is missing from a catalog, untranslated in any of the four
 * catalogs, or when a catalog keeps messages no longer used (spec §1 languages; DESIGN.md).
 */
describe("lingui catalogs", () => {
  it("cover every source message in all four locales, translated", async () => {
    const { problems, extracted, locales } = await checkCatalogs();
    expect([...locales].sort()).toEqual([...LOCALES].sort());
    expect(extracted).toBeGreaterThan(0);
    const report = problems.map((problem) => `${problem.locale} ${problem.kind}: ${problem.message}`);
    expect(report).toEqual([]);
  });

  it("list the same locales as the schema (i18n.ts repeats them to keep zod off /login)", () => {
    expect([...LOCALES]).toEqual([...SCHEMA_LOCALES]);
    expect(DEFAULT_LOCALE).toBe(SCHEMA_DEFAULT);
  });
});
