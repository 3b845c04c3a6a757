/**
 * Web unit tests in a plain node environment (no DOM needed: guards, the request client, error
 * messages and the catalog check are tested as functions). The lingui macro transform and the .po
 * loader run as in the app build, so messages are tested as users get them.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import babel from "@rolldown/plugin-babel";
import { lingui, linguiTransformerBabelPreset } from "@lingui/vite-plugin";

const linguiConfig = fileURLToPath(new URL("../lingui.config.ts", import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  plugins: [
    lingui({ configPath: linguiConfig }),
    babel({ presets: [linguiTransformerBabelPreset(undefined, { configPath: linguiConfig })] }),
  ],
  define: { __APP_VERSION__: JSON.stringify("test") },
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    include: ["web/src/**/*.test.ts", "web/src/**/*.test.tsx", "web/scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
  },
});
