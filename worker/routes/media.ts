/**
 * GET /api/media/{key}?exp=&sig=: conversation media, flow media and job files from R2 through
 * signed, expiring URLs (worker/lib/media.ts). Public (the signature is the credential). 403 for a
 * bad or expired signature; 404 when the object is gone, or when MEDIA_ORIGIN is set and the request
 * came to another origin. Supports single byte ranges so audio and video can seek.
 *
 * Nothing served here runs as our origin (issue 8 point 1, worker/lib/sniff.ts): inline only for
 * raster images, audio, video and PDF by the type stored from the bytes; everything else is an
 * attachment typed application/octet-stream (office files keep their type); every answer carries
 * `Content-Security-Policy: default-src 'none'; sandbox` and `X-Content-Type-Options: nosniff`.
 */
import { Hono } from "hono";
import type { HonoEnv } from "../middleware/context";
import { AppError, notFound } from "../lib/errors";
import { mediaOrigin, verifyMediaSignature } from "../lib/media";
import { fileNameOfDisposition, mediaHeaders } from "../lib/sniff";

export const mediaRoutes = new Hono<HonoEnv>().get("/*", async (c) => {
  const origin = mediaOrigin(c.env);
  if (origin && new URL(c.req.url).origin !== origin) throw notFound("File");
  const key = decodeURIComponent(c.req.path.replace(/^\/api\/media\//, ""));
  if (!/^media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/.test(key)) throw notFound("File");
  const exp = Number(c.req.query("exp"));
  const sig = c.req.query("sig") ?? "";
  if (!(await verifyMediaSignature(c.env, key, exp, sig))) throw new AppError("forbidden", "This link has expired.");
  const range = c.req.header("Range");
  const object = await c.env.FILES.get(key, range ? { range: c.req.raw.headers } : undefined);
  if (!object) throw notFound("File");
  const headers = mediaHeaders(object.httpMetadata?.contentType, fileNameOfDisposition(object.httpMetadata?.contentDisposition), key.slice(key.lastIndexOf("/") + 1));
  headers.set("ETag", object.httpEtag);
  headers.set("Cache-Control", "private, max-age=3600");
  headers.set("Accept-Ranges", "bytes");
  if (range && "range" in object && object.range && "offset" in object.range) {
    const offset = object.range.offset ?? 0;
    const length = object.range.length ?? object.size - offset;
    headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    headers.set("Content-Length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  return new Response(object.body, { headers });
});
