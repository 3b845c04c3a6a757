/**
 * Catalog completeness check (DESIGN.md "every visible string through lingui; all four catalogs
 * complete"). Extracts the messages of web/src in memory with lingui's own extractor (the same
 * one `lingui extract` runs, so nothing on disk changes) and compares them with the committed
 * catalogs locales/{locale}/messages.po:
 * - `notInCatalog`: a message used in the source that a catalog lacks (run `lingui extract`);
 * - `untranslated`: a message whose msgstr is empty in a catalog (translate it);
 * - `obsolete`: a catalog entry no longer used in the source (run `lingui extract --clean`).
 * Run directly (`node web/scripts/i18n-check.ts`) it prints the problems and exits 1 when any.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { getConfig } from "@lingui/conf";
import { getCatalogs } from "@lingui/cli/api";

/** One problem found in one locale's catalog. */
export type CatalogProblem = {
  kind: "notInCatalog" | "untranslated" | "obsolete";
  locale: string;
  /** The English source message. */
  message: string;
};

/** Path of the repository's lingui.config.ts. */
export const LINGUI_CONFIG_PATH = fileURLToPath(new URL("../../lingui.config.ts", import.meta.url));

/** Runs the check and returns every problem (an empty list means the catalogs are complete). */
export async function checkCatalogs(configPath: string = LINGUI_CONFIG_PATH): Promise<{ problems: CatalogProblem[]; extracted: number; locales: string[] }> {
  const config = getConfig({ configPath, skipValidation: true });
  const problems: CatalogProblem[] = [];
  let extracted = 0;
  for (const catalog of await getCatalogs(config)) {
    const used = await catalog.collect();
    if (!used) throw new Error(`Message extraction failed for ${catalog.path}`);
    extracted += Object.keys(used).length;
    const existing = await catalog.readAll(config.locales);
    for (const locale of config.locales) {
      const entries = existing[locale] ?? {};
      for (const [id, source] of Object.entries(used)) {
        const entry = entries[id];
        const message = source.message ?? id;
        if (!entry) problems.push({ kind: "notInCatalog", locale, message });
        else if (!entry.translation?.trim()) problems.push({ kind: "untranslated", locale, message });
      }
      for (const [id, entry] of Object.entries(entries)) {
        if (!(id in used) && !entry.obsolete) problems.push({ kind: "obsolete", locale, message: entry.message ?? id });
      }
    }
  }
  return { problems, extracted, locales: config.locales };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { problems, extracted, locales } = await checkCatalogs();
  for (const problem of problems) console.error(`${problem.locale}: ${problem.kind}: ${problem.message}`);
  console.log(`${extracted} messages × ${locales.length} locales: ${problems.length ? `${problems.length} problem(s)` : "complete"}.`);
  if (problems.length) process.exitCode = 1;
}
