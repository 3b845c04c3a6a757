import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ANY_IMPORT, repo, resolveImport, src } from "./import-graph";
import { ENTRY_CATALOGS } from "@/lib/i18n";
import { ERROR_FILES, SHELL_FILES } from "@/lib/catalog-areas";

/**
 * Per-area catalogs (lingui.config.ts; issue 9 "Load only what a screen needs"): a route loads the
 * catalogs of the features its screen's code uses (web/src/app/router.tsx). These tests follow the
 * imports of each lazily loaded screen and layout (static and dynamic, as a user may open any
 * dialog of the screen) and fail, naming the route and the catalogs, when a feature the code uses
 * is not in the route's list; a message of that feature would otherwise show in English.
 */

/** Files reached from `entries`; dynamic imports inside the files of `stopAt` are not followed. */
function reach(entries: string[], stopAt: string[] = []): string[] {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop();
    if (!file || seen.has(file) || !/\.tsx?$/.test(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(ANY_IMPORT)) {
      if (match[3] && stopAt.includes(file)) continue;
      const next = resolveImport(file, match[1] ?? match[2] ?? match[3] ?? "");
      if (next) stack.push(next);
    }
  }
  return [...seen];
}

/** The catalogs (lingui.config.ts) holding the messages of `files`: a feature's, "shell", "errors", "core". */
function featureCatalogs(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const path = relative(src, file);
    const name = SHELL_FILES.includes(path) ? "shell" : ERROR_FILES.includes(path) ? "errors" : (/^features\/([^/]+)\//.exec(path)?.[1] ?? "core");
    if (existsSync(resolve(repo, `locales/pt-BR/${name}.po`))) names.add(name);
  }
  return [...names].sort();
}

const routerFile = resolve(src, "app/router.tsx");
const rootFrameFile = resolve(src, "app/root-frame.tsx");
const rootErrorFile = resolve(src, "app/routes/root-error.tsx");
const loginFile = resolve(src, "features/auth/components/login-page.tsx");

/** The names in the `loadCatalogs([...])` loaded with `module` (`Promise.all([import(module), loadCatalogs([...])])`) in `file`. */
function catalogsLoadedWith(file: string, module: string): string[] | null {
  const source = readFileSync(file, "utf8");
  const at = source.indexOf(`Promise.all([import("${module}")`);
  if (at < 0) return null;
  const match = /loadCatalogs\(\[([^\]]*)\]\)/.exec(source.slice(Math.max(0, at - 200), at + 300));
  return match ? quoted(match[1]) : null;
}
const routerSource = readFileSync(routerFile, "utf8");
/** `screen(() => import("X"), (m) => m.Y, ["a", "b"])` in router.tsx. */
const SCREEN = /screen\(\s*\(\) => import\("([^"]+)"\),\s*\(m\) => m\.(\w+),\s*\[([^\]]*)\]\s*\)/g;
/** The names quoted in a list's source text. */
const quoted = (list: string | undefined) => [...(list ?? "").matchAll(/"([^"]+)"/g)].map((name) => name[1] ?? "");
const routes = [...routerSource.matchAll(SCREEN)].map((match) => ({
  module: match[1] ?? "",
  component: match[2] ?? "",
  catalogs: quoted(match[3]),
}));

describe("route catalogs", () => {
  it("every lazy route in router.tsx names its catalogs", () => {
    const lazyImports = [...routerSource.matchAll(/import\("([^"]+)"\)/g)].length;
    expect(routes.length).toBe(lazyImports);
  });

  it("the entry (the router, guards, error screens) uses only the entry catalogs", () => {
    // Not followed: the routes', the error screen's and the not-in-company screen's own loads, the
    // login page's load of the error table (checked below), and the guards' query sources
    // (guard-sources.ts), which show no message.
    const files = reach([resolve(src, "main.tsx")], [routerFile, rootFrameFile, rootErrorFile, loginFile, resolve(src, "app/guard-loader.ts")]);
    expect(featureCatalogs(files).filter((name) => !ENTRY_CATALOGS.includes(name))).toEqual([]);
  });

  for (const [file, module, target] of [
    [rootErrorFile, "./not-in-company", "app/routes/not-in-company.tsx"],
    [rootFrameFile, "./routes/root-error", "app/routes/root-error.tsx"],
    [loginFile, "@/lib/error-messages", "lib/error-messages.ts"],
  ] as const) {
    it(`${relative(src, file)} loads ${module} with the catalogs of what it uses`, () => {
      const declared = catalogsLoadedWith(file, module);
      expect(declared, `${relative(src, file)} loads ${module} in Promise.all with loadCatalogs([...])`).not.toBeNull();
      const stop = target === "app/routes/root-error.tsx" ? [rootErrorFile] : [];
      const needed = featureCatalogs(reach([resolve(src, target)], stop));
      expect(needed.filter((name) => !declared?.includes(name) && !ENTRY_CATALOGS.includes(name))).toEqual([]);
    });
  }

  for (const route of routes) {
    it(`${route.component} (${route.module}) loads the catalogs of every feature it uses`, () => {
      const file = resolveImport(routerFile, route.module);
      expect(file).not.toBeNull();
      // The login page's own load of the error table is checked above.
      const needed = featureCatalogs(reach([file ?? ""], [loginFile]));
      const missing = needed.filter((name) => !route.catalogs.includes(name) && !ENTRY_CATALOGS.includes(name));
      expect(missing, `add to ${route.component}'s list in router.tsx: ${JSON.stringify(needed)}`).toEqual([]);
    });
  }
});
