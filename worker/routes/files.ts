/**
 * GET /api/files/images/{...}: serves stored images (avatars, logos) from R2. Keys contain a
 * random UUIDv7 and are immutable, so they are cached for a year. Only the `images/` prefix is
 * public; media of conversations are served through signed URLs (worker/routes/media.ts). Only
 * raster images are ever stored here (worker/lib/images.ts checks the magic bytes); they are served
 * inline with the media sandbox CSP and `nosniff` all the same (issue 8 point 1).
 */
import { Hono } from "hono";
import type { HonoEnv } from "../middleware/context";
import { notFound } from "../lib/errors";
import { mediaHeaders } from "../lib/sniff";

export const files = new Hono<HonoEnv>().get("/images/*", async (c) => {
  const key = c.req.path.replace(/^\/api\/files\//, "");
  if (!/^images\/[a-z-]+\/[0-9a-f-]{36}\.(png|jpg|gif|webp)$/.test(key)) throw notFound("File");
  const object = await c.env.FILES.get(key);
  if (!object) throw notFound("File");
  const headers = mediaHeaders(object.httpMetadata?.contentType, key.slice(key.lastIndexOf("/") + 1), "image");
  headers.set("Cache-Control", object.httpMetadata?.cacheControl ?? "public, max-age=31536000, immutable");
  headers.set("ETag", object.httpEtag);
  return new Response(object.body, { headers });
});
