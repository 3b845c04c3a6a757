/**
 * Vite build of the web app (STYLE.md layout): root web/, output dist/web (served by the worker's
 * static assets with SPA fallback). Babel runs the lingui macro plugin; @lingui/vite-plugin compiles
 * imported .po catalogs. The build-version plugin writes dist/web/build.json (the latest-build file)
 * and embeds the same version in the bundle; Vite's manifest is written as build-manifest.json. Both
 * feed the hourly new-build check (spec §7, §9; web/src/lib/build-check.ts). Routes are split into
 * their own chunks by react-router `lazy` (web/src/app/router.tsx); `npm run bench:web` measures what
 * each page loads.
 */
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import babel from "@rolldown/plugin-babel";
import tailwindcss from "@tailwindcss/vite";
import { lingui, linguiTransformerBabelPreset } from "@lingui/vite-plugin";

const root = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const BUILD_VERSION = `${new Date().toISOString().replace(/[-:.TZ]/g, "")}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Modules of the "boot" chunk: those every page runs before its first screen, /login included
 * (npm run bench:web measures what a page downloads; issue 9 targets /login ≤ 120 KiB gzip JS).
 */
const BOOT_MODULES = new RegExp(
  [
    "/node_modules/(react|react-dom|scheduler|react-router|@lingui/(core|react)|clsx|class-variance-authority|use-sync-external-store)/",
    "/node_modules/@radix-ui/react-(slot|compose-refs|primitive|label)/",
    "/node_modules/lucide-react/dist/esm/(createLucideIcon|Icon|defaultAttributes|shared/)",
    "/web/src/lib/(utils|api|session|i18n|branding|branding-store|answers-boot|theme|toaster-state|build-check|use-brand)\\.ts",
    "/web/src/components/ui/(button|input|label|card|alert|spinner)\\.tsx",
    "/web/src/app/(router|route-table|route-permissions|guards|guard-loader|providers|root-frame)\\.tsx?",
    "/web/src/app/layouts/(auth-layout|brand-mark)\\.tsx",
    "/web/src/features/preferences/components/(language-switch|theme-toggle)\\.tsx",
  ].join("|"),
);

/** Modules of the login page's chunk (the page, its form check and request, the auth card). */
const LOGIN_MODULES = /\/web\/src\/features\/auth\/(components\/(login-page|auth-card)\.tsx|lib\/login-form\.ts|api\/auth-api\.ts)|\/lucide-react\/dist\/esm\/icons\/triangle-alert/;

/**
 * Modules of the "schemas" chunk: zod, the shared rules and the answer parsers the shell reads, and
 * the form field. The auth pages' forms use them too, so they stay out of the "shell" chunk (a
 * group takes its modules' imports along unless another group has taken them first).
 */
const SCHEMA_MODULES =
  /\/node_modules\/zod\/|\/schema\/(enums|permissions|validation\/(announcements|billing|common|company|import-targets))\.ts|\/web\/src\/lib\/answers(-core)?\.ts|\/web\/src\/components\/ui\/form-field\.tsx/;

/** The error table (lib/error-messages.ts): the login form loads it with its first error, alone. */
const ERROR_TABLE = /\/web\/src\/lib\/error-messages\.ts/;

/**
 * Modules of the "toasts" chunk: sonner, tailwind-merge, the toast helpers, the empty state and the
 * mail icon, which the password pages use without the shell.
 */
const TOAST_MODULES =
  /\/node_modules\/(sonner|tailwind-merge)\/|\/web\/src\/lib\/notify\.ts|\/web\/src\/components\/ui\/empty-state\.tsx|\/lucide-react\/dist\/esm\/icons\/mail-check\.mjs/;

/**
 * Modules of the "shell" chunk: the signed-in frame every app page runs (the default layout's shell,
 * its notices and menus, react-query, the Radix menus/popover/dialog and the icons the shell shows),
 * in one chunk instead of about ninety small ones (issue 9 targets /chats ≤ 250 KiB gzip JS). zod, the answer parsers, the error table and the form field stay
 * apart (SCHEMA_MODULES, ERROR_TABLE), and so do sonner and tailwind-merge (TOAST_MODULES): the auth
 * pages use them without the shell.
 */
const SHELL_MODULES = new RegExp(
  [
    "/node_modules/(@tanstack/(query-core|react-query)|@floating-ui/[a-z-]+|react-remove-scroll(-bar)?|use-callback-ref|use-sidecar|react-style-singleton|get-nonce|aria-hidden|tslib)/",
    "/node_modules/@radix-ui/(primitive|react-(avatar|collection|context|dialog|direction|dismissable-layer|dropdown-menu|focus-guards|focus-scope|id|menu|popover|popper|portal|presence|roving-focus|switch|use-callback-ref|use-controllable-state|use-effect-event|use-is-hydrated|use-layout-effect|use-size))/",
    "/node_modules/lucide-react/dist/esm/icons/(bell-off|bell|building-complex|cable|calendar-clock|check|chevrons-up-down|circle-exclamation-point|columns-3|contact|credit-card|hash|key-round|layout-dashboard|list-filter|log-out|mail-open|mail|megaphone|menu|message-circle|messages-square|repeat|search-x|search|settings|shield-check|shield-exclamation-point|tags|unplug|user-round|users|webhook|workflow|x|zap)\\.mjs",
    "/web/src/app/(query-provider|guard-sources|navigation)\\.tsx?",
    "/web/src/app/layouts/(app-shell|default-layout)\\.tsx",
    "/web/src/components/code-form\\.tsx",
    "/web/src/components/ui/(avatar|badge|dropdown-menu|error-state|popover|sheet|skeleton|switch)\\.tsx",
    "/web/src/features/(session|companies|invites|notifications)/(api|components|hooks|lib)/",
    "/web/src/features/announcements/(api/announcements-api|components/(announcement-body|announcements-bell-section))\\.tsx?",
    "/web/src/features/billing/(api/billing-api|components/billing-notices|lib/notices)\\.tsx?",
    "/web/src/features/connections/(components/connection-lost-notice|lib/disconnected)\\.tsx?",
    "/web/src/lib/(query-client|realtime|counts|dates|relative-time|use-document-top)\\.ts",
  ].join("|"),
);

/** Name of the build manifest beside index.html (read by the new-build check and bench:web). */
const BUILD_MANIFEST = "build-manifest.json";

/**
 * Emits `build.json` `{version, builtAt, manifest}` (the latest-build file) beside index.html and
 * serves it in dev.
 */
function buildVersion(version: string): Plugin {
  const body = JSON.stringify({ version, builtAt: new Date().toISOString(), manifest: `/${BUILD_MANIFEST}` });
  return {
    name: "conversa-build-version",
    config: () => ({ define: { __APP_VERSION__: JSON.stringify(version) } }),
    configureServer(server) {
      server.middlewares.use("/build.json", (_req, res) => {
        res.setHeader("Content-Type", "application/json");
        res.setHeader("Cache-Control", "no-store");
        res.end(body);
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "build.json", source: body });
    },
  };
}

export default defineConfig({
  root,
  plugins: [
    react(),
    lingui({ configPath: `${repoRoot}lingui.config.ts` }),
    babel({ presets: [linguiTransformerBabelPreset(undefined, { configPath: `${repoRoot}lingui.config.ts` })] }),
    tailwindcss(),
    buildVersion(BUILD_VERSION),
  ],
  resolve: { alias: { "@": `${root}src` } },
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    manifest: BUILD_MANIFEST,
    // No preload lists in the entry (a few KiB of chunk names on every page); a lazy chunk's own
    // imports load when it does. CSS of lazy chunks is still loaded with them.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // What every page runs before its first screen (react, the router, lingui, the base UI
        // parts, the request client, the auth layout) in one chunk instead of a few dozen small
        // ones: one gzip stream compresses better and each chunk's import/export glue is gone.
        // The login page and its card form one chunk too, and so does the signed-in shell.
        codeSplitting: {
          groups: [
            { name: "boot", test: (id: string) => BOOT_MODULES.test(id) },
            { name: "login", test: (id: string) => LOGIN_MODULES.test(id) },
            { name: "error-table", test: (id: string) => ERROR_TABLE.test(id) },
            { name: "schemas", test: (id: string) => SCHEMA_MODULES.test(id) },
            { name: "toasts", test: (id: string) => TOAST_MODULES.test(id) },
            { name: "shell", test: (id: string) => SHELL_MODULES.test(id) },
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": "http://localhost:8787" },
  },
});
