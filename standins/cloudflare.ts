/**
 * A loopback stand-in for Cloudflare's custom hostnames API (Cloudflare for SaaS), speaking the
 * documented contract worker/lib/custom-hostnames.ts uses:
 *
 * - `POST /client/v4/zones/{zone}/custom_hostnames` `{hostname, ssl: {method: "txt"|"http", type: "dv"}}`
 *   → 200 `{success: true, errors: [], messages: [], result}` with `status: "pending"`,
 *   `ssl.status: "pending_validation"`, `ownership_verification` {type: "txt", name, value} and
 *   `ssl.validation_records` (txt_name/txt_value, or http_url/http_body for method http).
 *   A hostname already on the zone → 409 with error code 1406 ("Duplicate custom hostname found.").
 * - `GET …/custom_hostnames/{id}` → the object; unknown → 404 code 1436.
 * - `DELETE …/custom_hostnames/{id}` → `{result: {id}}`.
 * Every call needs `Authorization: Bearer <token>` (401 code 10000 otherwise) and the configured
 * zone id (404 code 7003 otherwise).
 *
 * Control (not Cloudflare's): `POST /__activate/{id}` moves a hostname to `status: "active"`,
 * `ssl.status: "active"` (its DCV records cleared), as Cloudflare does once the DNS records exist;
 * `GET /__hostnames` lists them.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { randomUUID } from "node:crypto";

type Stored = {
  id: string;
  hostname: string;
  status: string;
  ssl: { id: string; type: string; method: string; status: string; validation_records: Record<string, string>[] };
  ownership_verification: { type: string; name: string; value: string };
  ownership_verification_http: { http_url: string; http_body: string };
  created_at: string;
};

export type CloudflareStandIn = {
  /** API base to use as CF_API_URL (…/client/v4). */
  apiUrl: string;
  origin: string;
  token: string;
  zoneId: string;
  hostnames: Map<string, Stored>;
  close(): Promise<void>;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** Starts the stand-in on 127.0.0.1 (a free port unless `port` is given). */
export async function startCloudflareStandIn(options: { token?: string; zoneId?: string; port?: number; keepAlive?: boolean } = {}): Promise<CloudflareStandIn> {
  const token = options.token ?? "cf-test-token";
  const zoneId = options.zoneId ?? "zone-test";
  const hostnames = new Map<string, Stored>();

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const fail = (status: number, code: number, message: string) => send(status, { success: false, errors: [{ code, message }], messages: [], result: null });
    const ok = (result: unknown) => send(200, { success: true, errors: [], messages: [], result });
    const url = new URL(req.url ?? "/", "http://localhost");

    const activate = /^\/__activate\/([^/]+)$/.exec(url.pathname);
    if (activate && req.method === "POST") {
      const item = hostnames.get(decodeURIComponent(activate[1] ?? ""));
      if (!item) return fail(404, 1436, "Custom hostname not found.");
      item.status = "active";
      item.ssl.status = "active";
      item.ssl.validation_records = [];
      return ok(item);
    }
    if (url.pathname === "/__hostnames") return send(200, [...hostnames.values()]);

    const match = /^\/client\/v4\/zones\/([^/]+)\/custom_hostnames(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match) return fail(404, 7000, "No route for that URI");
    if (req.headers.authorization !== `Bearer ${token}`) return fail(401, 10000, "Authentication error");
    if (decodeURIComponent(match[1] ?? "") !== zoneId) return fail(404, 7003, "Could not route to /zones, perhaps your object identifier is invalid?");
    const id = match[2] ? decodeURIComponent(match[2]) : null;

    if (!id && req.method === "POST") {
      let body: { hostname?: unknown; ssl?: { method?: unknown; type?: unknown } };
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return fail(400, 1400, "Invalid JSON.");
      }
      const hostname = typeof body.hostname === "string" ? body.hostname.toLowerCase() : "";
      if (!/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(hostname)) return fail(400, 1411, "Invalid custom hostname.");
      const method = body.ssl?.method === "http" ? "http" : body.ssl?.method === "txt" ? "txt" : null;
      if (!method || body.ssl?.type !== "dv") return fail(400, 1413, "Invalid ssl method or type.");
      if ([...hostnames.values()].some((h) => h.hostname === hostname)) return fail(409, 1406, "Duplicate custom hostname found.");
      const newId = randomUUID();
      const dcv = randomUUID().replace(/-/g, "");
      const item: Stored = {
        id: newId,
        hostname,
        status: "pending",
        ssl: {
          id: randomUUID(),
          type: "dv",
          method,
          status: "pending_validation",
          validation_records:
            method === "txt"
              ? [{ txt_name: `_acme-challenge.${hostname}`, txt_value: dcv, status: "pending" }]
              : [{ http_url: `http://${hostname}/.well-known/acme-challenge/${dcv.slice(0, 16)}`, http_body: dcv, status: "pending" }],
        },
        ownership_verification: { type: "txt", name: `_cf-custom-hostname.${hostname}`, value: randomUUID() },
        ownership_verification_http: { http_url: `http://${hostname}/.well-known/cf-custom-hostname-challenge/${newId}`, http_body: randomUUID() },
        created_at: new Date().toISOString(),
      };
      hostnames.set(newId, item);
      return ok(item);
    }
    if (id && req.method === "GET") {
      const item = hostnames.get(id);
      return item ? ok(item) : fail(404, 1436, "Custom hostname not found.");
    }
    if (id && req.method === "DELETE") {
      if (!hostnames.delete(id)) return fail(404, 1436, "Custom hostname not found.");
      return ok({ id });
    }
    return fail(405, 10405, "Method not allowed.");
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  if (!options.keepAlive) server.unref();
  const origin = `http://127.0.0.1:${port}`;
  return {
    apiUrl: `${origin}/client/v4`,
    origin,
    token,
    zoneId,
    hostnames,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
