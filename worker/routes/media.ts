/**
 * GET /api/media/{key}?exp=&sig=: conversation media from R2 through signed, expiring URLs
 * (worker/lib/media.ts). 403 for a bad or expired signature; 404 when the object is gone. Supports
 * single byte ranges so audio and video can seek.
 */
import { Hono } from "hono";
import type { HonoEnv } from "../middleware/context";
import { AppError, notFound } from "../lib/errors";
import { verifyMediaSignature } from "../lib/media";

export const mediaRoutes = new Hono<HonoEnv>().get("/*", async (c) => {
  const key = decodeURIComponent(c.req.path.replace(/^\/api\/media\//, ""));
  if (!/^media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/.test(key)) throw notFound("File");
  const exp = Number(c.req.query("exp"));
  const sig = c.req.query("sig") ?? "";
  if (!(await verifyMediaSignature(c.env, key, exp, sig))) throw new AppError("forbidden", "This link has expired.");
  const range = c.req.header("Range");
  const object = await c.env.FILES.get(key, range ? { range: c.req.raw.headers } : undefined);
  if (!object) throw notFound("File");
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Cache-Control", "private, max-age=3600");
  headers.set("Accept-Ranges", "bytes");
  headers.set("X-Content-Type-Options", "nosniff");
  if (range && "range" in object && object.range && "offset" in object.range) {
    const offset = object.range.offset ?? 0;
    const length = object.range.length ?? object.size - offset;
    headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    headers.set("Content-Length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  return new Response(object.body, { headers });
});
