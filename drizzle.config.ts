import { defineConfig } from "drizzle-kit";

/**
 * drizzle-kit writes SQL migrations into the flat `migrations/` folder that both
 * `wrangler d1 migrations apply` and the vitest plugin's readD1Migrations read.
 */
export default defineConfig({
  dialect: "sqlite",
  schema: "./schema/index.ts",
  out: "./migrations",
  migrations: { prefix: "index" },
});
