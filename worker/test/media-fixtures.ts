/**
 * Media bytes for tests: a real file signature (magic numbers) of the given type followed by filler,
 * since stored media are typed by their bytes (worker/lib/sniff.ts), never by the declared type.
 */

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The leading bytes of each type that file-type recognises. */
const SIGNATURES: Record<string, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, ...ascii("IHDR"), 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89],
  "image/jpeg": [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii("JFIF"), 0x00, 0x01, 0x01, 0, 0, 1, 0, 1, 0, 0],
  "image/gif": [...ascii("GIF89a"), 1, 0, 1, 0, 0, 0, 0],
  "image/webp": [...ascii("RIFF"), 0x24, 0, 0, 0, ...ascii("WEBPVP8 ")],
  "audio/ogg": [...ascii("OggS"), 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 19, ...ascii("OpusHead"), 1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0],
  "audio/mpeg": [0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0],
  "video/mp4": [0, 0, 0, 0x18, ...ascii("ftypmp42"), 0, 0, 0, 0, ...ascii("mp42isom")],
  "application/pdf": ascii("%PDF-1.4\n"),
};

/**
 * `length` bytes of `mime` (one of SIGNATURES' keys): its signature, then a filler that depends on
 * `seed` (so two fixtures differ). Throws for a type without a signature here.
 */
export function mediaBytes(mime: string, length = 256, seed = 1): Uint8Array {
  const head = SIGNATURES[mime];
  if (!head) throw new Error(`no test signature for ${mime}`);
  const out = new Uint8Array(Math.max(length, head.length));
  out.set(head);
  for (let i = head.length; i < out.length; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}

/** An HTML page whose script, if it ever ran, would set `window.__pwned` and read the session. */
export const HTML_PAYLOAD = `<!doctype html><html><body><h1>Invoice</h1><script>window.__pwned = true; fetch("/pwned?" + localStorage.getItem("token"));</script></body></html>`;

/** An SVG image with a script inside (SVG is script-capable, so it is never served inline). */
export const SVG_PAYLOAD = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>window.__pwned = true;</script><rect width="10" height="10"/></svg>`;
