/**
 * What stored bytes are, judged by their magic numbers (the `file-type` library), never by the type
 * a client or a provider declared; and how such bytes may be served back (issue 8 point 1: nothing
 * a user or a customer uploads ever runs as our origin).
 *
 * - Inline only for INLINE_TYPES: raster images (PNG, JPEG, GIF, WebP), audio, video and PDF.
 * - Everything else (HTML, SVG, XML, text, office files, archives, unknown bytes) is served as
 *   `Content-Disposition: attachment` with a non-executable type.
 * - Every media answer carries MEDIA_CSP (a sandbox without any source) and `nosniff`.
 */
import { fileTypeFromBuffer } from "file-type";

/** Types a browser may show in place: none of them can run script on our origin. */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "audio/ogg",
  "audio/mpeg",
  "audio/mp4",
  "audio/x-m4a",
  "audio/aac",
  "audio/aacp",
  "audio/webm",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/flac",
  "audio/x-flac",
  "audio/amr",
  "audio/3gpp",
  "video/mp4",
  "video/webm",
  "video/3gpp",
  "video/quicktime",
  "video/ogg",
  "application/pdf",
]);

/**
 * Downloads keep their real type (browsers never render them; providers such as Meta read the
 * type of a linked document); any other non-inline type is answered as application/octet-stream.
 */
const DOWNLOAD_TYPES: ReadonlySet<string> = new Set([
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
  "application/zip",
  "application/x-7z-compressed",
  "application/gzip",
]);

/** The bytes-are-unknown type: never rendered, never sniffed (with `nosniff`). */
export const OCTET_STREAM = "application/octet-stream";

/** `Content-Security-Policy` of every media answer: no source of any kind, a unique opaque origin. */
export const MEDIA_CSP = "default-src 'none'; sandbox";

/**
 * Containers whose magic numbers cannot tell audio from video (a WebM, MP4 or Ogg voice note looks
 * like a video file): within one group the declared type is kept, since both are safe.
 */
const CONTAINER_GROUPS: readonly ReadonlySet<string>[] = [
  new Set(["video/webm", "audio/webm"]),
  new Set(["video/mp4", "audio/mp4", "audio/x-m4a", "video/quicktime", "video/3gpp", "audio/3gpp"]),
  new Set(["audio/ogg", "video/ogg", "audio/opus", "application/ogg"]),
];

/** File-name extensions of the stored key, by type (the key's extension is cosmetic). */
const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/webm": "webm",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "video/webm": "webm",
  "application/pdf": "pdf",
};

/** `type/subtype` of a Content-Type value, lower-case, without parameters ("" when absent). */
export function baseType(mime: string | null | undefined): string {
  return (mime ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Whether bytes stored as `mime` may be shown inline (INLINE_TYPES). */
export function isInlineType(mime: string | null | undefined): boolean {
  return INLINE_TYPES.has(baseType(mime));
}

/** What stored bytes are: the type kept in R2 and on the message, and the key's extension. */
export type SniffedType = { mime: string; ext: string };

/**
 * The type of `bytes` by their magic numbers (first 4,100 bytes are enough for `file-type`).
 * `declared` (the client's or provider's type) is only used to tell audio from video inside one
 * container (CONTAINER_GROUPS); it never makes unknown bytes renderable. Only INLINE_TYPES and
 * known office/archive downloads are kept; unknown bytes, HTML, SVG, XML, text and anything else
 * are application/octet-stream.
 */
export async function sniffType(bytes: Uint8Array | ArrayBuffer, declared?: string | null): Promise<SniffedType> {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const found = await fileTypeFromBuffer(view.subarray(0, 64 * 1024)).catch(() => undefined);
  if (!found) return { mime: OCTET_STREAM, ext: "bin" };
  const detected = baseType(found.mime);
  const wanted = baseType(declared);
  const sameContainer = CONTAINER_GROUPS.some((group) => group.has(detected) && group.has(wanted));
  const mime = sameContainer && INLINE_TYPES.has(wanted) ? wanted : detected;
  // Only known types are kept: XML (an SVG with a prolog), executables and the rest are bytes.
  if (!INLINE_TYPES.has(mime) && !DOWNLOAD_TYPES.has(mime)) return { mime: OCTET_STREAM, ext: "bin" };
  const ext = EXTENSIONS[mime] ?? (/^[a-z0-9]{1,5}$/.test(found.ext) ? found.ext : "bin");
  return { mime, ext };
}

/**
 * A file name safe in a header and on a disk: no path, no control or quote characters, at most 120
 * characters; `fallback` when nothing is left.
 */
export function safeFileName(name: string | null | undefined, fallback: string): string {
  const cleaned = ((name ?? "").split(/[/\\]/).pop() ?? "")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"*:<>?|;]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(0, 120);
  return cleaned || fallback;
}

/** The file name inside a stored Content-Disposition (`filename*=UTF-8''…` or `filename="…"`). */
export function fileNameOfDisposition(disposition: string | null | undefined): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return null;
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain?.[1]?.trim() || null;
}

/** A Content-Disposition value: ASCII `filename` for old clients, UTF-8 `filename*` for the rest. */
export function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The headers stored bytes are served with: `Content-Type` (the stored type when inline or a known
 * download, otherwise application/octet-stream), `Content-Disposition` (inline only for
 * INLINE_TYPES), MEDIA_CSP and `nosniff`. `fileName` is made safe here.
 */
export function mediaHeaders(storedType: string | null | undefined, fileName: string | null | undefined, fallbackName: string): Headers {
  const type = baseType(storedType);
  const inline = INLINE_TYPES.has(type);
  const headers = new Headers();
  headers.set("Content-Type", inline || DOWNLOAD_TYPES.has(type) ? type : OCTET_STREAM);
  headers.set("Content-Disposition", contentDisposition(inline ? "inline" : "attachment", safeFileName(fileName, fallbackName)));
  headers.set("Content-Security-Policy", MEDIA_CSP);
  headers.set("X-Content-Type-Options", "nosniff");
  return headers;
}
