/**
 * Request host → franchise (issue 14 "Resolving the franchise"; DESIGN.md "Franchises").
 *
 * The hostname of the request (lower-cased, port and trailing dot stripped; under Cloudflare for
 * SaaS the custom hostname the customer pointed at us) is looked up in `franchise_hostnames`, and the
 * answer carries the franchise's branding, so `/api/infos` and the HTML rewrite need nothing more.
 *
 * Cache (so the hot path adds no D1 query), two tiers:
 * 1. an in-isolate map, hostname → {branding | null, expires}, entries live HOST_TTL_MS (30 s);
 * 2. the Cache API (`caches.default`, colo-local) under a synthetic URL
 *    `https://franchise-host.invalid/v<CACHE_VERSION>/<hostname>`, max-age CACHE_TTL_S (60 s);
 * then D1. Unknown hosts are cached too (as `null`), so the product's own host never queries D1
 * after its first request in a colo.
 * Invalidation: every write that changes a hostname or a franchise's branding calls
 * `invalidateFranchiseHosts(hostnames)`, which drops the entries from this isolate's map and from
 * the Cache API of this colo at once; other isolates and colos see the change within their TTLs
 * (at most 30 s + 60 s). Bump CACHE_VERSION when the cached shape changes.
 *
 * With FRANCHISE_MODE off nothing is looked up at all (spec §5: "franchise calls are skipped when
 * franchise mode is off"): `resolveFranchise` answers null without touching a cache or D1.
 */
import { eq } from "drizzle-orm";
import { franchiseHostnames, franchises } from "../../schema";
import type { AppEnv } from "../env";
import { getDb } from "./db";

/** The branding and id of a franchise, as cached per hostname. */
export type FranchiseBrand = {
  id: string;
  name: string;
  logoKey: string | null;
  faviconKey: string | null;
  primaryColor: string | null;
  /** The text for a user of this host who belongs to no company (spec §3 notInCompany; "" when none). */
  notInCompany: string;
  /** ms UTC of the franchise's last change: versions the logo/favicon URLs. */
  updatedAt: number;
};

/** Whether franchise mode is on (`FRANCHISE_MODE` = "on"; off by default). */
export function franchiseModeOn(env: Pick<AppEnv, "FRANCHISE_MODE">): boolean {
  return (env.FRANCHISE_MODE ?? "").trim().toLowerCase() === "on";
}

/**
 * The hostname of a request URL or Host header value: lower-cased, port and trailing dot stripped,
 * IPv6 brackets kept. `"Acme.Example.com:8443"` → `"acme.example.com"`.
 */
export function normalizeHostname(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    return end > 0 ? h.slice(0, end + 1) : h;
  }
  h = h.replace(/:\d*$/, "");
  return h.replace(/\.+$/, "");
}

/** Isolate-tier entry lifetime (ms). */
export const HOST_TTL_MS = 30_000;
/** Cache API tier max-age (s). */
export const CACHE_TTL_S = 60;
const CACHE_VERSION = 1;

const isolateCache = new Map<string, { brand: FranchiseBrand | null; expires: number }>();
/** Upper bound of the isolate map (hostnames); the oldest entries go first beyond it. */
const ISOLATE_MAX = 5000;

const cacheUrl = (hostname: string) => `https://franchise-host.invalid/v${CACHE_VERSION}/${encodeURIComponent(hostname)}`;

function cacheStore(): Cache | null {
  try {
    return typeof caches !== "undefined" ? (caches as unknown as { default: Cache }).default : null;
  } catch {
    return null;
  }
}

/** Reads the franchise of `hostname` from D1 (no cache). */
export async function lookupFranchiseHost(env: Pick<AppEnv, "DB">, hostname: string): Promise<FranchiseBrand | null> {
  const db = getDb(env.DB);
  const [row] = await db
    .select({
      id: franchises.id,
      name: franchises.name,
      logoKey: franchises.logoKey,
      faviconKey: franchises.faviconKey,
      primaryColor: franchises.primaryColor,
      notInCompany: franchises.notInCompany,
      updatedAt: franchises.updatedAt,
    })
    .from(franchiseHostnames)
    .innerJoin(franchises, eq(franchises.id, franchiseHostnames.franchiseId))
    .where(eq(franchiseHostnames.hostname, hostname))
    .limit(1);
  return row ?? null;
}

/**
 * The franchise of `host` (a URL host or Host header, any case, with or without port), or null:
 * franchise mode off, an unknown host, or the product's own. Cached as the file header says.
 */
export async function resolveFranchise(env: Pick<AppEnv, "DB" | "FRANCHISE_MODE">, host: string): Promise<FranchiseBrand | null> {
  if (!franchiseModeOn(env)) return null;
  const hostname = normalizeHostname(host);
  if (!hostname) return null;
  const at = Date.now();
  const hit = isolateCache.get(hostname);
  if (hit && hit.expires > at) return hit.brand;

  const store = cacheStore();
  let brand: FranchiseBrand | null | undefined;
  if (store) {
    try {
      const cached = await store.match(cacheUrl(hostname));
      if (cached) brand = (await cached.json()) as FranchiseBrand | null;
    } catch {
      brand = undefined;
    }
  }
  if (brand === undefined) {
    brand = await lookupFranchiseHost(env, hostname);
    if (store) {
      try {
        await store.put(
          cacheUrl(hostname),
          new Response(JSON.stringify(brand), { headers: { "Content-Type": "application/json", "Cache-Control": `max-age=${CACHE_TTL_S}` } }),
        );
      } catch {
        // The isolate tier still spares D1 for this isolate.
      }
    }
  }
  if (isolateCache.size >= ISOLATE_MAX) {
    const oldest = isolateCache.keys().next().value;
    if (oldest !== undefined) isolateCache.delete(oldest);
  }
  isolateCache.set(hostname, { brand, expires: at + HOST_TTL_MS });
  return brand;
}

/** The franchise of the request's host (see resolveFranchise). */
export function franchiseOfRequest(env: Pick<AppEnv, "DB" | "FRANCHISE_MODE">, request: Request): Promise<FranchiseBrand | null> {
  return resolveFranchise(env, new URL(request.url).host);
}

/**
 * Drops `hostnames` from both cache tiers (this isolate, this colo). Call after adding or removing
 * a hostname and after changing a franchise's name, logo, favicon or colour (with all its hostnames).
 */
export async function invalidateFranchiseHosts(hostnames: readonly string[]): Promise<void> {
  const store = cacheStore();
  await Promise.all(
    hostnames.map(async (h) => {
      const hostname = normalizeHostname(h);
      isolateCache.delete(hostname);
      if (store) {
        try {
          await store.delete(cacheUrl(hostname));
        } catch {
          // best effort: the TTL bounds staleness
        }
      }
    }),
  );
}

/** Invalidates every hostname of franchise `franchiseId` (after a branding change or deletion). */
export async function invalidateFranchise(env: Pick<AppEnv, "DB">, franchiseId: string): Promise<void> {
  const rows = await getDb(env.DB)
    .select({ hostname: franchiseHostnames.hostname })
    .from(franchiseHostnames)
    .where(eq(franchiseHostnames.franchiseId, franchiseId));
  await invalidateFranchiseHosts(rows.map((r) => r.hostname));
}

/** Empties the isolate tier (tests). */
export function clearFranchiseHostCache(): void {
  isolateCache.clear();
}

/**
 * The origin (`scheme://host[:port]`, no trailing slash) that the links of a franchise's mails
 * point to, so a franchise's users never land on the product's own address (issue 14, white
 * label): the request's own origin when its host is one of the franchise's hostnames; else the
 * franchise's oldest usable hostname (`active` at Cloudflare: https; `local`, a `*.localhost` name:
 * PUBLIC_URL's scheme and port, as `npm start` serves it); else PUBLIC_URL. `franchiseId` null (a
 * company outside any franchise) or franchise mode off → PUBLIC_URL, without a query.
 */
export async function franchiseOrigin(
  env: Pick<AppEnv, "DB" | "FRANCHISE_MODE" | "PUBLIC_URL">,
  franchiseId: string | null,
  requestUrl?: string,
): Promise<string> {
  const fallback = env.PUBLIC_URL.replace(/\/+$/, "");
  if (!franchiseId || !franchiseModeOn(env)) return fallback;
  if (requestUrl) {
    const url = new URL(requestUrl);
    const brand = await resolveFranchise(env, url.host);
    if (brand?.id === franchiseId) return url.origin;
  }
  const rows = await getDb(env.DB)
    .select({ hostname: franchiseHostnames.hostname, status: franchiseHostnames.status })
    .from(franchiseHostnames)
    .where(eq(franchiseHostnames.franchiseId, franchiseId))
    .orderBy(franchiseHostnames.createdAt, franchiseHostnames.id);
  const usable = rows.find((row) => row.status === "active" || row.status === "local");
  if (!usable) return fallback;
  if (usable.status === "active") return `https://${usable.hostname}`;
  const base = new URL(fallback);
  return `${base.protocol}//${usable.hostname}${base.port ? `:${base.port}` : ""}`;
}
