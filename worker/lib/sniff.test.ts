/**
 * worker/lib/sniff.ts inside workerd: types come from magic numbers, not from the declared type.
 */
import { describe, expect, it } from "vitest";
import { mediaBytes, HTML_PAYLOAD, SVG_PAYLOAD } from "../test/media-fixtures";
import { contentDisposition, fileNameOfDisposition, mediaHeaders, safeFileName, sniffType } from "./sniff";

const text = (s: string) => new TextEncoder().encode(s);

describe("sniffType", () => {
  for (const mime of ["image/png", "image/jpeg", "image/gif", "image/webp", "audio/ogg", "audio/mpeg", "video/mp4", "application/pdf"]) {
    it(`${mime} bytes are stored as ${mime} whatever was declared`, async () => {
      expect((await sniffType(mediaBytes(mime), "text/html")).mime).toBe(mime);
      expect((await sniffType(mediaBytes(mime))).mime).toBe(mime);
    });
  }

  it("HTML, SVG, text and unknown bytes are application/octet-stream even when declared as an image", async () => {
    for (const bytes of [text(HTML_PAYLOAD), text(SVG_PAYLOAD), text("hello"), new Uint8Array([1, 2, 3]), new Uint8Array()]) {
      expect(await sniffType(bytes, "image/png")).toEqual({ mime: "application/octet-stream", ext: "bin" });
    }
  });

  it("an audio container keeps the declared audio type; a video declared for non-media bytes does not", async () => {
    expect((await sniffType(mediaBytes("video/mp4"), "audio/mp4")).mime).toBe("audio/mp4");
    expect((await sniffType(mediaBytes("audio/ogg"), "audio/ogg; codecs=opus")).mime).toBe("audio/ogg");
    expect((await sniffType(mediaBytes("image/png"), "video/mp4")).mime).toBe("image/png");
  });
});

describe("mediaHeaders", () => {
  it("inline only for the allow-list; everything else is an octet-stream attachment with the sandbox CSP and nosniff", () => {
    const png = mediaHeaders("image/png", "a.png", "f");
    expect(png.get("Content-Type")).toBe("image/png");
    expect(png.get("Content-Disposition")).toMatch(/^inline;/);
    for (const type of ["text/html", "image/svg+xml", "application/xhtml+xml", "text/xml", "application/javascript", "application/octet-stream", undefined]) {
      const h = mediaHeaders(type, "x.html", "f");
      expect(h.get("Content-Type"), String(type)).toBe("application/octet-stream");
      expect(h.get("Content-Disposition"), String(type)).toMatch(/^attachment;/);
    }
    for (const h of [png, mediaHeaders("text/html", null, "f")]) {
      expect(h.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
      expect(h.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("file names are made safe for a header and round-trip through the stored disposition", () => {
    expect(safeFileName('../../etc/pa"ss\r\nwd.html', "f")).toBe("pa_ss__wd.html");
    expect(safeFileName("", "fallback.bin")).toBe("fallback.bin");
    expect(fileNameOfDisposition(contentDisposition("attachment", "nota fiscal ção.pdf"))).toBe("nota fiscal ção.pdf");
    expect(contentDisposition("attachment", "ção.pdf")).toBe(`attachment; filename="__o.pdf"; filename*=UTF-8''%C3%A7%C3%A3o.pdf`);
  });
});
