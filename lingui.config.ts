/**
 * Lingui configuration (DESIGN.md "Web conventions"; spec §1 and §9): source strings are written in
 * English (en-US); pt-BR is the product's default locale; catalogs live in
 * `locales/{locale}/messages.po` and are compiled on import by @lingui/vite-plugin.
 */
import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

export default defineConfig({
  sourceLocale: "en-US",
  locales: ["pt-BR", "pt-PT", "en-US", "es-ES"],
  fallbackLocales: { default: "en-US" },
  catalogs: [
    {
      path: "<rootDir>/locales/{locale}/messages",
      include: ["<rootDir>/web/src"],
      exclude: ["**/*.test.ts", "**/*.test.tsx", "**/node_modules/**"],
    },
  ],
  // Origins without line numbers keep catalogs stable when code moves.
  format: formatter({ lineNumbers: false }),
});
