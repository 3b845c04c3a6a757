/**
 * Calls made before sign-in: health and the public runtime settings (spec §1: franchise mode and
 * the primary colour come from public runtime settings).
 */
import { Hono } from "hono";
import type { HonoEnv } from "../middleware/context";
import type { RuntimeSettings } from "../../schema/api-types";

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
   * GET /api/infos → {name, logo, favicon}: the franchise of this hostname (spec §7). Until
   * franchises exist every hostname is the product's own, so it answers the product's name.
   */
  .get("/infos", (c) => c.json({ name: c.env.APP_NAME, logo: null, favicon: null }));
