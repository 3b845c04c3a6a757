/**
 * A stand-in for Instagram's business login and Graph API on loopback (issue 15), for tests, the
 * e2e run and `npm start` (Instagram cannot be reached here). It speaks the documented contract
 * (shared/reference/wire-formats-wave2.md §3):
 *
 * - `GET /oauth/authorize?client_id&redirect_uri&response_type=code&scope&state`: the consent page,
 *   an HTML page naming the account with an "Allow" button (→ `redirect_uri?code=…&state=…#_`) and
 *   a "Cancel" link (→ `error=access_denied`);
 * - `POST /oauth/access_token` (form: client_id, client_secret, grant_type=authorization_code,
 *   redirect_uri, code): a short-lived token; each code works once, with its redirect_uri;
 * - `GET /access_token?grant_type=ig_exchange_token&client_secret&access_token` → a 60-day token;
 *   `GET /refresh_access_token?grant_type=ig_refresh_token&access_token` → a new one;
 * - `GET /{version}/me?fields=…` (a token it issued) → the account (`user_id`, `username`, …);
 * - `POST /{version}/{ig-user-id}/subscribed_apps?subscribed_fields=…` → `{success: true}`;
 * - `GET /{version}/{igsid}?fields=name,username,profile_pic` → a customer's profile;
 * - `POST /{version}/{ig-user-id}/messages` → `{recipient_id, message_id}` (a second private reply
 *   to one comment is refused as Meta does); `POST /{version}/{comment-id}/replies?message=` → `{id}`;
 * - `GET /cdn/{name}`: media registered with /__media (attachment and story CDN URLs).
 *
 * Control endpoints (not Instagram's): `GET /__sent` (every request above, in order), `POST /__reset`,
 * `POST /__deliver {payload, url?}` (signs the JSON with the app secret, `X-Hub-Signature-256`, and
 * POSTs it to `url` or the webhook URL given at start; answers the status), `POST /__profiles
 * {igsid, name?, username?, profile_pic?}`, `POST /__media {name, mime, base64}`, `POST /__fail
 * {match?, times, status, code, message}` (the next sends and replies whose path contains `match` fail), `POST /__account {userId,
 * username}` (the account the consent page logs in).
 */
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export type InstagramRecord = { method: string; path: string; query: Record<string, string>; authorization: string | null; body: unknown; at: number };

export type InstagramStandIn = {
  origin: string;
  /** Use as INSTAGRAM_GRAPH_URL. */
  graphUrl: string;
  /** Use as INSTAGRAM_OAUTH_URL. */
  oauthUrl: string;
  appId: string;
  appSecret: string;
  sent: InstagramRecord[];
  /** Signs `payload` with the app secret and POSTs it to `url` (or the webhook URL); answers the status. */
  deliver(payload: unknown, url?: string): Promise<number>;
  close(): Promise<void>;
};

export type InstagramStandInOptions = {
  port?: number;
  appId?: string;
  appSecret?: string;
  /** Where /__deliver posts by default (the worker's /api/channels/instagram/webhook). */
  webhookUrl?: string;
  /** Keep connections alive (wrangler dev reuses them). */
  keepAlive?: boolean;
};

/** `sha256=<hex HMAC-SHA256(secret, body)>`, as in `X-Hub-Signature-256`. */
export function instagramSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** Graph's error envelope. */
function graphError(res: ServerResponse, status: number, code: number, message: string, type = "OAuthException"): void {
  json(res, status, { error: { message, type, code, fbtrace_id: randomUUID().slice(0, 12) } });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export async function startInstagramStandIn(options: InstagramStandInOptions = {}): Promise<InstagramStandIn> {
  const appId = options.appId ?? "1234567890";
  const appSecret = options.appSecret ?? "instagram-test-app-secret";
  const sent: InstagramRecord[] = [];
  let account = { userId: "17841400000000001", username: "conversa.loja" };
  const codes = new Map<string, { redirectUri: string; userId: string; username: string }>();
  const shortTokens = new Map<string, { userId: string; username: string }>();
  const longTokens = new Map<string, { userId: string; username: string }>();
  const profiles = new Map<string, { name?: string; username?: string; profile_pic?: string }>();
  const media = new Map<string, { mime: string; bytes: Buffer }>();
  const repliedComments = new Set<string>();
  /** Pending failures, each for the requests whose path contains `match` (every request when empty). */
  let failures: { match: string; times: number; status: number; code: number; message: string }[] = [];
  let origin = "";

  async function deliver(payload: unknown, url?: string): Promise<number> {
    const target = url ?? options.webhookUrl;
    if (!target) throw new Error("no webhook URL");
    const body = JSON.stringify(payload);
    const res = await fetch(target, { method: "POST", headers: { "Content-Type": "application/json", "X-Hub-Signature-256": instagramSignature(appSecret, body) }, body });
    await res.arrayBuffer();
    return res.status;
  }

  /** A pending failure for a send or reply to `path`, used up. */
  function takeFailure(path: string) {
    const f = failures.find((x) => x.times > 0 && path.includes(x.match));
    if (!f) return null;
    f.times -= 1;
    failures = failures.filter((x) => x.times > 0);
    return f;
  }

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", origin);
      const path = url.pathname;
      const query = Object.fromEntries(url.searchParams);
      const raw = await readBody(req);
      const text = raw.toString("utf8");
      let body: unknown = null;
      if (text) {
        if ((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) body = Object.fromEntries(new URLSearchParams(text));
        else {
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
        }
      }
      const authorization = req.headers.authorization ?? null;
      const bearer = authorization?.startsWith("Bearer ") ? authorization.slice(7) : (query.access_token ?? "");

      // --- control ------------------------------------------------------------------------
      if (path === "/__sent") return json(res, 200, sent);
      if (path === "/__reset" && req.method === "POST") {
        sent.length = 0;
        failures = [];
        repliedComments.clear();
        return json(res, 200, { ok: true });
      }
      if (path === "/__deliver" && req.method === "POST") {
        const b = (body ?? {}) as { payload?: unknown; url?: string };
        return json(res, 200, { status: await deliver(b.payload, b.url) });
      }
      if (path === "/__profiles" && req.method === "POST") {
        const b = body as { igsid: string; name?: string; username?: string; profile_pic?: string };
        profiles.set(b.igsid, { name: b.name, username: b.username, profile_pic: b.profile_pic });
        return json(res, 200, { ok: true });
      }
      if (path === "/__media" && req.method === "POST") {
        const b = body as { name: string; mime: string; base64: string };
        media.set(b.name, { mime: b.mime, bytes: Buffer.from(b.base64, "base64") });
        return json(res, 200, { url: `${origin}/cdn/${encodeURIComponent(b.name)}` });
      }
      if (path === "/__fail" && req.method === "POST") {
        const b = body as { match?: string; times?: number; status?: number; code?: number; message?: string };
        failures.push({ match: b.match ?? "", times: b.times ?? 1, status: b.status ?? 500, code: b.code ?? 2, message: b.message ?? "Service temporarily unavailable" });
        return json(res, 200, { ok: true });
      }
      if (path === "/__account" && req.method === "POST") {
        const b = body as { userId: string; username: string };
        account = { userId: b.userId, username: b.username };
        return json(res, 200, { ok: true });
      }
      if (path.startsWith("/cdn/")) {
        const item = media.get(decodeURIComponent(path.slice(5)));
        if (!item) {
          res.writeHead(404, { "Content-Type": "text/plain" });
          return res.end("URL signature expired");
        }
        res.writeHead(200, { "Content-Type": item.mime, "Content-Length": item.bytes.length });
        return res.end(item.bytes);
      }

      sent.push({ method: req.method ?? "GET", path, query, authorization, body, at: Date.now() });

      // --- business login -----------------------------------------------------------------
      if (path === "/oauth/authorize" && req.method === "GET") {
        if (query.client_id !== appId || !query.redirect_uri || query.response_type !== "code") {
          res.writeHead(400, { "Content-Type": "text/html; charset=utf-8" });
          return res.end("<!doctype html><title>Invalid request</title><p>Invalid client_id, redirect_uri or response_type.</p>");
        }
        const code = `AQ${randomUUID().replace(/-/g, "")}`;
        codes.set(code, { redirectUri: query.redirect_uri, ...account });
        const allow = new URL(query.redirect_uri);
        allow.searchParams.set("code", code);
        if (query.state) allow.searchParams.set("state", query.state);
        const deny = new URL(query.redirect_uri);
        deny.searchParams.set("error", "access_denied");
        deny.searchParams.set("error_reason", "user_denied");
        if (query.state) deny.searchParams.set("state", query.state);
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Instagram (stand-in): allow access</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}a.button{display:inline-block;padding:.6rem 1.2rem;background:#0095f6;color:#fff;border-radius:.5rem;text-decoration:none}</style></head>
<body><h1>Allow access to @${escapeHtml(account.username)}?</h1>
<p>The app ${escapeHtml(appId)} asks for: ${escapeHtml(query.scope ?? "")}.</p>
<p><a class="button" role="button" href="${escapeHtml(`${allow.toString()}#_`)}">Allow</a> <a href="${escapeHtml(deny.toString())}">Cancel</a></p>
<p><small>Loopback stand-in of Instagram's business login (Conversa tests and local development).</small></p></body></html>`);
      }
      if (path === "/oauth/access_token" && req.method === "POST") {
        const form = (body ?? {}) as Record<string, string>;
        if (form.client_id !== appId || form.client_secret !== appSecret) return graphError(res, 400, 101, "Invalid client_id or client_secret");
        const entry = codes.get((form.code ?? "").replace(/#_$/, ""));
        if (!entry || entry.redirectUri !== form.redirect_uri || form.grant_type !== "authorization_code") {
          return graphError(res, 400, 36009, "Invalid authorization code", "IGApiException");
        }
        codes.delete((form.code ?? "").replace(/#_$/, ""));
        const token = `IGQWshort${randomUUID().replace(/-/g, "")}`;
        shortTokens.set(token, entry);
        // user_id as a bare number, as Instagram writes it (it exceeds 2^53).
        return json(res, 200, `{"access_token":"${token}","user_id":${entry.userId},"permissions":["instagram_business_basic","instagram_business_manage_messages","instagram_business_manage_comments"]}`);
      }
      if ((path === "/access_token" || /^\/v[\d.]+\/access_token$/.test(path)) && req.method === "GET") {
        const entry = shortTokens.get(query.access_token ?? "");
        if (query.grant_type !== "ig_exchange_token" || query.client_secret !== appSecret || !entry) return graphError(res, 400, 190, "Invalid OAuth access token");
        shortTokens.delete(query.access_token ?? "");
        const token = `IGQWlong${randomUUID().replace(/-/g, "")}`;
        longTokens.set(token, entry);
        return json(res, 200, { access_token: token, token_type: "bearer", expires_in: 5_184_000 });
      }
      if ((path === "/refresh_access_token" || /^\/v[\d.]+\/refresh_access_token$/.test(path)) && req.method === "GET") {
        const entry = longTokens.get(query.access_token ?? "");
        if (query.grant_type !== "ig_refresh_token" || !entry) return graphError(res, 400, 190, "Invalid OAuth access token");
        const token = `IGQWlong${randomUUID().replace(/-/g, "")}`;
        longTokens.set(token, entry);
        return json(res, 200, { access_token: token, token_type: "bearer", expires_in: 5_184_000 });
      }

      // --- Graph API ----------------------------------------------------------------------
      const graph = /^\/v[\d.]+\/([^/]+)(?:\/([^/]+))?$/.exec(path);
      if (!graph) return graphError(res, 404, 100, "Unknown path", "GraphMethodException");
      const [, node = "", edge] = graph;
      if (!bearer) return graphError(res, 400, 190, "An active access token must be used");
      if (node === "me" && !edge && req.method === "GET") {
        const entry = longTokens.get(bearer);
        if (!entry) return graphError(res, 400, 190, "Invalid OAuth access token");
        return json(res, 200, `{"user_id":"${entry.userId}","username":"${entry.username}","name":"Loja ${entry.username}","profile_picture_url":"${origin}/cdn/profile.jpg","account_type":"BUSINESS","id":"${entry.userId}0"}`);
      }
      if (edge === "subscribed_apps" && req.method === "POST") return json(res, 200, { success: true });
      if (edge === "messages" && req.method === "POST") {
        const failure = takeFailure(path);
        if (failure) return graphError(res, failure.status, failure.code, failure.message);
        const b = (body ?? {}) as { recipient?: { id?: string; comment_id?: string } };
        const commentId = b.recipient?.comment_id;
        if (commentId) {
          if (repliedComments.has(commentId)) return graphError(res, 400, 10, "This message is sent outside of allowed window or the comment was already replied to.", "IGApiException");
          repliedComments.add(commentId);
        }
        if (!b.recipient?.id && !commentId) {
          // sender_action without recipient is invalid too; a bare sender_action answers like Meta.
          return graphError(res, 400, 100, "The parameter recipient is required", "IGApiException");
        }
        if ("sender_action" in (b as Record<string, unknown>)) return json(res, 200, { recipient_id: b.recipient?.id ?? "" });
        return json(res, 200, { recipient_id: b.recipient?.id ?? commentId, message_id: `aWdfZAG1faXRlbToxOk${randomUUID().replace(/-/g, "")}` });
      }
      if (edge === "replies" && req.method === "POST") {
        const failure = takeFailure(path);
        if (failure) return graphError(res, failure.status, failure.code, failure.message);
        return json(res, 200, { id: `1790${Date.now()}` });
      }
      if (!edge && req.method === "GET") {
        const profile = profiles.get(node) ?? { name: `Cliente ${node.slice(-4)}`, username: `cliente_${node.slice(-6)}` };
        return json(res, 200, { ...profile, id: node });
      }
      return graphError(res, 400, 100, "Unsupported request", "GraphMethodException");
    } catch (error) {
      json(res, 500, { error: { message: String(error), code: 1 } });
    }
  });
  if (options.keepAlive) server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  // The stand-in never keeps its process alive by itself (vitest, the e2e runner and npm start end it).
  server.unref();
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    graphUrl: `${origin}/v23.0`,
    oauthUrl: origin,
    appId,
    appSecret,
    sent,
    deliver,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
