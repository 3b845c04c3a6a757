/**
 * Issue 8 point 1: nothing a user or a customer uploads runs as our origin. Uploaded and received
 * files are typed by their bytes; GET /api/media serves only raster images, audio, video and PDF
 * inline, everything else as an application/octet-stream attachment; every media answer carries
 * `Content-Security-Policy: default-src 'none'; sandbox` and `nosniff`; API and app answers carry
 * their own CSP. Also MEDIA_ORIGIN (a separate origin for user content).
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { QuickMessageAnswer } from "../../schema/api-types";
import type { FlowAnswer } from "../../schema/flow-api";
import type { MessageAnswer } from "../../schema/realtime";
import worker from "../index";
import { signedMediaUrl } from "../lib/media";
import { appCsp, withAppHeaders } from "../lib/security-headers";
import { onlyTicket, pairSandbox, sandboxConnection, sandboxEvents, ticketMessages } from "../test/channel-helpers";
import { call, expectStatus, form, pngFile, register, type Account } from "../test/helpers";
import { HTML_PAYLOAD, mediaBytes, SVG_PAYLOAD } from "../test/media-fixtures";

const MEDIA_CSP = "default-src 'none'; sandbox";

/** Asserts the headers every media answer carries. */
function expectSandboxed(res: Response): void {
  expect(res.headers.get("Content-Security-Policy")).toBe(MEDIA_CSP);
  expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
}

/** Asserts `res` is a download that cannot render: attachment + application/octet-stream. */
async function expectDownload(res: Response, bytes: Uint8Array | string, fileName?: string): Promise<void> {
  if (res.status !== 200) expect.fail(`${res.status} ${await res.text()}`);
  expectSandboxed(res);
  expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
  expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/);
  if (fileName) expect(res.headers.get("Content-Disposition")).toContain(`filename="${fileName}"`);
  const body = new Uint8Array(await res.arrayBuffer());
  expect(body).toEqual(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
}

async function createFlow(token: string): Promise<FlowAnswer> {
  return expectStatus<FlowAnswer>(await call("POST", "/api/flows", { token, body: { name: `Flow ${Math.random().toString(36).slice(2, 8)}`, type: "default" } }), 201);
}

/** Uploads `file` as flow media and answers the stored type and a signed URL for it. */
async function flowMedia(owner: Account, file: File): Promise<{ mime: string; url: string }> {
  const flow = await createFlow(owner.token);
  const media = await expectStatus<{ url: string; mime: string }>(await call("POST", `/api/flows/${flow.id}/media`, { token: owner.token, form: form({ file }) }), 200);
  const signed = await expectStatus<{ url: string }>(await call("GET", `/api/flows/${flow.id}/media-url?ref=${encodeURIComponent(media.url)}`, { token: owner.token }), 200);
  return { mime: media.mime, url: signed.url };
}

/** A sandbox connection with one customer ticket; answers the device token and the ticket id. */
async function sandboxTicket(owner: Account): Promise<{ deviceToken: string; ticketId: string; phone: string }> {
  const connection = await sandboxConnection(owner.token);
  const deviceToken = await pairSandbox(owner.token, connection.id);
  const phone = `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const events = [{ kind: "message", id: `sbx-${crypto.randomUUID()}`, from: phone, name: "Cliente", type: "text", body: "Oi", timestamp: Date.now() }];
  await expectStatus(await sandboxEvents(deviceToken, events), 200);
  return { deviceToken, ticketId: (await onlyTicket(owner.token)).id, phone };
}

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe("user content is typed by its bytes and never served as a page", () => {
  it("an HTML file uploaded as flow media with a lying image type is stored and served as an octet-stream attachment", async () => {
    const owner = await register();
    const stored = await flowMedia(owner, new File([HTML_PAYLOAD], "invoice.png", { type: "image/png" }));
    expect(stored.mime).toBe("application/octet-stream");
    await expectDownload(await call("GET", stored.url), HTML_PAYLOAD, "invoice.png");
  });

  it("an HTML file declared as text/html is an attachment too (the declared type is ignored)", async () => {
    const owner = await register();
    const stored = await flowMedia(owner, new File([HTML_PAYLOAD], "page.html", { type: "text/html" }));
    expect(stored.mime).toBe("application/octet-stream");
    await expectDownload(await call("GET", stored.url), HTML_PAYLOAD, "page.html");
  });

  it("an SVG with a script sent in a chat as an image goes out as a document, served as an attachment", async () => {
    const owner = await register();
    const { ticketId } = await sandboxTicket(owner);
    const sent = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, form: form({ file: new File([SVG_PAYLOAD], "logo.svg", { type: "image/svg+xml" }), type: "image" }) }),
      201,
    );
    expect(sent.type).toBe("document");
    expect(sent.media?.mime).toBe("application/octet-stream");
    await expectDownload(await call("GET", sent.media!.url), SVG_PAYLOAD, "logo.svg");
  });

  it("an HTML document and an SVG sent by a customer are stored as octet-stream and served as attachments", async () => {
    const owner = await register();
    const { deviceToken, ticketId, phone } = await sandboxTicket(owner);
    const events = [
      { kind: "message", id: `sbx-${crypto.randomUUID()}`, from: phone, type: "document", body: "", media: { mime: "text/html", fileName: "boleto.html", dataBase64: base64(HTML_PAYLOAD) }, timestamp: Date.now() },
      { kind: "message", id: `sbx-${crypto.randomUUID()}`, from: phone, type: "image", body: "", media: { mime: "image/svg+xml", fileName: "foto.svg", dataBase64: base64(SVG_PAYLOAD) }, timestamp: Date.now() + 1 },
    ];
    await expectStatus(await sandboxEvents(deviceToken, events), 200);
    const inbound = (await ticketMessages(owner.token, ticketId)).results.filter((m) => m.media);
    expect(inbound.map((m) => m.media?.mime)).toEqual(["application/octet-stream", "application/octet-stream"]);
    await expectDownload(await call("GET", inbound[0]!.media!.url), HTML_PAYLOAD, "boleto.html");
    await expectDownload(await call("GET", inbound[1]!.media!.url), SVG_PAYLOAD, "foto.svg");
  });

  it("a PNG declared as text/html is stored and served inline as image/png, with the sandbox CSP and nosniff", async () => {
    const owner = await register();
    const png = new Uint8Array(await pngFile().arrayBuffer());
    const stored = await flowMedia(owner, new File([png], "photo.html", { type: "text/html" }));
    expect(stored.mime).toBe("image/png");
    const res = await call("GET", stored.url);
    expect(res.status).toBe(200);
    expectSandboxed(res);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Content-Disposition")).toMatch(/^inline;/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
  });

  it("audio, video and PDF bytes are inline with their own type; a ranged read keeps the headers", async () => {
    const owner = await register();
    for (const mime of ["audio/ogg", "video/mp4", "application/pdf"]) {
      const stored = await flowMedia(owner, new File([mediaBytes(mime, 2048)], "f", { type: "application/octet-stream" }));
      expect(stored.mime).toBe(mime);
      const res = await call("GET", stored.url, { headers: { Range: "bytes=0-99" } });
      expect(res.status, mime).toBe(206);
      expectSandboxed(res);
      expect(res.headers.get("Content-Type")).toBe(mime);
      expect(res.headers.get("Content-Disposition")).toMatch(/^inline;/);
      expect((await res.arrayBuffer()).byteLength).toBe(100);
    }
  });

  it("a quick message's file is typed by its bytes", async () => {
    const owner = await register();
    const created = await expectStatus<QuickMessageAnswer>(
      await call("POST", "/api/quick-messages", { token: owner.token, form: form({ name: "Página", text: "Veja", file: new File([HTML_PAYLOAD], "a.jpg", { type: "image/jpeg" }) }) }),
      201,
    );
    expect(created.media?.mime).toBe("application/octet-stream");
    await expectDownload(await call("GET", created.media!.url), HTML_PAYLOAD, "a.jpg");
  });

  it("media stored before this rule with a script-capable type is still served as an attachment", async () => {
    const owner = await register();
    const { mime, url } = await flowMedia(owner, pngFile());
    expect(mime).toBe("image/png");
    const key = new URL(url, "http://localhost").pathname.slice("/api/media/".length);
    await env.FILES.put(key, HTML_PAYLOAD, { httpMetadata: { contentType: "text/html", contentDisposition: "inline" } });
    await expectDownload(await call("GET", url), HTML_PAYLOAD);
  });

  it("avatars are served with the sandbox CSP and nosniff", async () => {
    const owner = await register();
    const me = await expectStatus<{ image: string }>(await call("PUT", "/api/me", { token: owner.token, form: form({ image: pngFile() }) }), 200);
    const res = await call("GET", me.image);
    expect(res.status).toBe(200);
    expectSandboxed(res);
    expect(res.headers.get("Content-Type")).toBe("image/png");
  });
});

describe("security headers of the API and the app", () => {
  it("API answers (success and error) carry nosniff, a no-source CSP and no referrer", async () => {
    for (const res of [await call("GET", "/api/health"), await call("GET", "/api/me"), await call("GET", "/api/media/media/x/y.png?exp=1&sig=0")]) {
      expect(res.headers.get("X-Content-Type-Options"), res.url).toBe("nosniff");
      expect(res.headers.get("Content-Security-Policy"), res.url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("Referrer-Policy"), res.url).toBe("no-referrer");
      await res.arrayBuffer();
    }
  });

  it("the app's pages and assets carry the CSP, Referrer-Policy, Permissions-Policy and nosniff", async () => {
    const url = new URL("https://app.example.com/tickets");
    const res = withAppHeaders(new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }), url, {});
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    for (const directive of ["script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "connect-src 'self' wss://app.example.com"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("Permissions-Policy")).toContain("camera=()");
    expect(res.headers.get("Permissions-Policy")).toContain("microphone=(self)");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(appCsp(url, { MEDIA_ORIGIN: "https://media.example.com" })).toContain("img-src 'self' data: blob: https://media.example.com");
  });
});

describe("MEDIA_ORIGIN: user content on a separate origin", () => {
  const MEDIA = "https://media.example.com";

  async function fetchWith(url: string, mediaOrigin: string | undefined): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(url), { ...env, MEDIA_ORIGIN: mediaOrigin }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("links are built on it, media is served only there, and that origin serves nothing else", async () => {
    const owner = await register();
    const { url } = await flowMedia(owner, pngFile());
    const key = new URL(url, "http://localhost").pathname.slice("/api/media/".length);
    const signed = await signedMediaUrl({ ...env, MEDIA_ORIGIN: MEDIA }, key);
    expect(signed.startsWith(`${MEDIA}/api/media/${key}?exp=`)).toBe(true);

    const onMedia = await fetchWith(signed, MEDIA);
    expect(onMedia.status).toBe(200);
    expectSandboxed(onMedia);
    await onMedia.arrayBuffer();
    const onApp = await fetchWith(signed.replace(MEDIA, "http://localhost"), MEDIA);
    expect(onApp.status).toBe(404);
    await onApp.arrayBuffer();
    const apiOnMedia = await fetchWith(`${MEDIA}/api/health`, MEDIA);
    expect(apiOnMedia.status).toBe(404);
    expectSandboxed(apiOnMedia);
    await apiOnMedia.arrayBuffer();
  });
});
