/**
 * Lingui configuration (DESIGN.md "Web conventions"; spec §1 and §9): source strings are written in
 * English (en-US); pt-BR is the product's default locale. Catalogs are split by area so a page loads
 * only the translations of the code it runs (issue 9 "Load only what a screen needs"):
 * - `locales/{locale}/core.po`: what every page, /login included, may show — web/src/app,
 *   web/src/components, web/src/lib and the entry, apart from the shell's and the error table's files; always loaded;
 * - `locales/{locale}/shell.po`: the signed-in app's frame and shared parts (SHELL_FILES of web/src/lib/catalog-areas.ts:
 *   sidebar, section menus, counts, row actions, …), loaded with the app's layouts and screens;
 * - `locales/{locale}/errors.po`: the error table (web/src/lib/error-messages.ts), loaded with the
 *   screens that show forms or errors (the login page loads it on its first error);
 * - `locales/{locale}/{feature}.po`: one per folder of web/src/features (auth, chats, flows, …),
 *   loaded with the routes that use that feature (web/src/app/router.tsx lists them per route;
 *   web/src/app/router-catalogs.test.ts checks the lists against the import graph).
 * A message used in two areas is in both catalogs. All are compiled on import by
 * @lingui/vite-plugin; `npm run i18n:extract` fills every catalog, `npm run i18n:check` checks them.
 */
import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";
import { ERROR_FILES, SHELL_FILES } from "./web/src/lib/catalog-areas";

const exclude = ["**/*.test.ts", "**/*.test.tsx", "**/node_modules/**"];

const shellPaths = SHELL_FILES.map((file) => `<rootDir>/web/src/${file}`);
const errorPaths = ERROR_FILES.map((file) => `<rootDir>/web/src/${file}`);

export default defineConfig({
  sourceLocale: "en-US",
  locales: ["pt-BR", "pt-PT", "en-US", "es-ES"],
  fallbackLocales: { default: "en-US" },
  catalogs: [
    {
      path: "<rootDir>/locales/{locale}/core",
      include: ["<rootDir>/web/src/app", "<rootDir>/web/src/components", "<rootDir>/web/src/lib", "<rootDir>/web/src/main.tsx"],
      exclude: [...exclude, ...shellPaths, ...errorPaths],
    },
    {
      path: "<rootDir>/locales/{locale}/errors",
      include: errorPaths,
      exclude,
    },
    {
      path: "<rootDir>/locales/{locale}/shell",
      include: shellPaths,
      exclude,
    },
    {
      path: "<rootDir>/locales/{locale}/{name}",
      include: ["<rootDir>/web/src/features/{name}"],
      exclude,
    },
  ],
  // Origins without line numbers keep catalogs stable when code moves.
  format: formatter({ lineNumbers: false }),
});
