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
  },
  server: {
    proxy: { "/api": "http://localhost:8787" },
  },
});
