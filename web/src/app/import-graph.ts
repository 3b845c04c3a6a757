/**
 * Reading the app's import graph from its sources, for the tests that hold the bundle's shape
 * (issue 9 "Load only what a screen needs": router-catalogs.test.ts, shell-packages.test.ts). Node
 * only (reads files); never imported by the app.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root and `web/src`, absolute. */
export const repo = fileURLToPath(new URL("../../..", import.meta.url));
export const src = resolve(repo, "web/src");

/** Static, non-type imports and re-exports, and side-effect imports: the specifier in group 1 or 2. */
export const STATIC_IMPORT = /(?:import|export)\s(?!type\s)[^"';]*?from\s*["']([^"']+)["']|import\s*["']([^"']+)["']/g;

/** As STATIC_IMPORT, plus dynamic `import("…")` (group 3): what a screen may load on demand. */
export const ANY_IMPORT = /(?:import|export)\s(?!type\s)[^"';]*?from\s*["']([^"']+)["']|import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The file an import specifier (`@/…` or relative) names from `from`, or null for packages and unknown paths. */
export function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = resolve(src, specifier.slice(2));
  else if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}
