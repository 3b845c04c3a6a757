/**
 * GET /api/files/images/{...}: serves stored images (avatars, logos) from R2. Keys contain a
 * random UUIDv7 and are immutable, so they are cached for a year. Only the `images/` prefix is
 * public; media of conversations are served through signed URLs in a later issue.
 */
import { Hono } from "hono";
import type { HonoEnv } from "../middleware/context";
import { notFound } from "../lib/errors";

export const files = new Hono<HonoEnv>().get("/images/*", async (c) => {
  const key = c.req.path.replace(/^\/api\/files\//, "");
  if (!/^images\/[a-z-]+\/[0-9a-f-]{36}\.(png|jpg|gif|webp)$/.test(key)) throw notFound("File");
  const object = await c.env.FILES.get(key);
  if (!object) throw notFound("File");
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(object.body, { headers });
});
