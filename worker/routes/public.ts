/**
 * Calls made before sign-in: health and the public runtime settings (spec §1: franchise mode and
 * the primary colour come from public runtime settings).
 */
import { Hono } from "hono";
import type { HonoEnv } from "../middleware/context";
import type { RuntimeSettings } from "../../schema/api-types";
import { infosOf } from "../lib/branding";
import { resolveFranchise } from "../lib/franchise-host";

export const publicRoutes = new Hono<HonoEnv>()
  /** GET /api/health → `{ ok: true }`, touching no storage (the benchmark's baseline). */
  .get("/health", (c) => c.json({ ok: true }))
  /** GET /api/runtime-settings → RuntimeSettings. */
  .get("/runtime-settings", (c) => {
    const body: RuntimeSettings = {
      appName: c.env.APP_NAME,
      franchiseMode: c.env.FRANCHISE_MODE === "on",
      primaryColor: c.env.PRIMARY_COLOR,
    };
    return c.json(body);
  })
  /**
   * GET /api/infos → InfosAnswer {name, logo, favicon, primaryColor, franchiseMode, franchise}: the
   * franchise of this hostname (spec §3 "Franchise info", §7), else the product's own. Resolved
   * through the cached host map (worker/lib/franchise-host.ts); nothing is looked up while
   * FRANCHISE_MODE is off.
   */
  .get("/infos", async (c) => c.json(infosOf(c.env, await resolveFranchise(c.env, new URL(c.req.url).host))));
