/**
 * Franchises, managed by platform administrators in the Admin area (issue 14; DESIGN.md "Platform
 * administration", "Franchises"; worker/middleware/platform-admin.ts).
 *
 * - GET /api/admin/franchises → {results: AdminFranchiseAnswer[], cursor: null, total}, by name (≤ 200).
 * - POST /api/admin/franchises AdminFranchiseInput {name, primaryColor?} → 201 AdminFranchiseAnswer.
 * - GET /api/admin/franchises/{id} → AdminFranchiseAnswer; 404 when unknown.
 * - PUT /api/admin/franchises/{id} AdminFranchiseInput → AdminFranchiseAnswer.
 * - DELETE /api/admin/franchises/{id} → 204: its hostnames are removed at Cloudflare and here, its
 *   admins and roles deleted; its companies stay, detached (franchise_id and franchise_role_id null).
 * - POST /api/admin/franchises/{id}/hostnames {hostname, sslMethod?} → 201 FranchiseHostnameAnswer
 *   with the DNS records to create (ownership TXT, certificate validation TXT or HTTP). A
 *   `*.localhost` hostname is not registered at Cloudflare (status "local"); without CF_API_TOKEN /
 *   CF_ZONE_ID any other hostname answers 400 `hostname` `cloudflare_not_configured`. 409 `conflict`
 *   (`hostname: hostname_in_use`) when any franchise has it; 502 `provider_unavailable` when
 *   Cloudflare refuses or cannot be reached (its message is passed on).
 * - GET /api/admin/franchises/{id}/hostnames/{hostnameId} → FranchiseHostnameAnswer, refreshed from
 *   Cloudflare (status pending → active, remaining records).
 * - DELETE /api/admin/franchises/{id}/hostnames/{hostnameId} → 204 (removed at Cloudflare too).
 * - POST /api/admin/franchises/{id}/admins {email} → 201 FranchiseAdminAnswer: the user with that
 *   e-mail administers the franchise (400 `email` `user_not_found` when nobody signed up with it: the
 *   person creates an account first). Idempotent.
 * - DELETE /api/admin/franchises/{id}/admins/{userId} → 204.
 * Every route: 404 while FRANCHISE_MODE is off; 401 without a session; 403 `forbidden` for a user
 * who is not a platform administrator; 403 `api_key_not_allowed` for a company API key; 400 naming
 * the field. Every hostname or branding change invalidates the host cache (worker/lib/franchise-host.ts).
 */
import { Hono } from "hono";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { companies, franchiseAdmins, franchiseHostnames, franchiseRoles, franchises, users, type FranchiseHostnameRow, type FranchiseRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { adminFranchiseInput, adminHostnameInput, franchiseAdminInput, type AdminFranchiseAnswer, type FranchiseAdminAnswer } from "../../schema/validation/franchise";
import type { HonoEnv } from "../middleware/context";
import { requireUser } from "../middleware/auth";
import { requireFranchiseMode } from "../middleware/franchise";
import { requirePlatformAdmin } from "../middleware/platform-admin";
import { brandImageUrl, presentHostname } from "../lib/branding";
import {
  createCustomHostname,
  CustomHostnameError,
  customHostnamesConfig,
  deleteCustomHostname,
  getCustomHostname,
  isLocalHostname,
  verificationRecordsOf,
} from "../lib/custom-hostnames";
import { isUniqueViolation, now, type Db } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { invalidateFranchise, invalidateFranchiseHosts } from "../lib/franchise-host";
import { newId } from "../lib/ids";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });
const hostnameParam = z.object({ id: idSchema, hostnameId: idSchema });
const adminParam = z.object({ id: idSchema, userId: idSchema });

/** How many franchises the list answers. */
const LIST_LIMIT = 200;

async function loadFranchise(db: Db, id: string): Promise<FranchiseRow> {
  const row = await db.query.franchises.findFirst({ where: eq(franchises.id, id) });
  if (!row) throw notFound("Franchise");
  return row;
}

/** The Admin-area answers of `rows`, with hostnames, admins and company counts (3 queries). */
async function presentMany(db: Db, rows: FranchiseRow[]): Promise<AdminFranchiseAnswer[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [hosts, admins, counts] = await Promise.all([
    db.select().from(franchiseHostnames).where(inArray(franchiseHostnames.franchiseId, ids)).orderBy(asc(franchiseHostnames.hostname)),
    db
      .select({ franchiseId: franchiseAdmins.franchiseId, id: users.id, name: users.name, email: users.email, createdAt: franchiseAdmins.createdAt })
      .from(franchiseAdmins)
      .innerJoin(users, eq(users.id, franchiseAdmins.userId))
      .where(inArray(franchiseAdmins.franchiseId, ids))
      .orderBy(asc(users.name)),
    db.select({ franchiseId: companies.franchiseId, n: count() }).from(companies).where(inArray(companies.franchiseId, ids)).groupBy(companies.franchiseId),
  ]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    logo: brandImageUrl(r.logoKey),
    favicon: brandImageUrl(r.faviconKey),
    primaryColor: r.primaryColor,
    hostnames: hosts.filter((h) => h.franchiseId === r.id).map(presentHostname),
    admins: admins.filter((a) => a.franchiseId === r.id).map(({ franchiseId: _f, ...a }) => a),
    companies: counts.find((c) => c.franchiseId === r.id)?.n ?? 0,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

async function presentOne(db: Db, row: FranchiseRow): Promise<AdminFranchiseAnswer> {
  return (await presentMany(db, [row]))[0]!;
}

/** Cloudflare's refusal or unavailability as the API's 502 (its message passed on). */
function providerError(error: unknown): never {
  if (error instanceof CustomHostnameError) {
    throw new AppError("provider_unavailable", `Cloudflare: ${error.message}`);
  }
  throw error;
}

export const adminFranchisesRoutes = new Hono<HonoEnv>()
  .use(requireFranchiseMode, requireUser, requirePlatformAdmin)
  /** GET /api/admin/franchises → {results, cursor: null, total}. */
  .get("/", async (c) => {
    const db = c.var.db;
    const rows = await db.select().from(franchises).orderBy(asc(franchises.name)).limit(LIST_LIMIT);
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(franchises);
    return c.json({ results: await presentMany(db, rows), cursor: null, total });
  })
  /** POST /api/admin/franchises → 201 AdminFranchiseAnswer. */
  .post("/", zv("json", adminFranchiseInput), async (c) => {
    const input = c.req.valid("json");
    const at = now();
    const row: FranchiseRow = {
      id: newId(),
      name: input.name,
      logoKey: null,
      faviconKey: null,
      primaryColor: input.primaryColor ?? null,
      notInCompany: "",
      notPaid: "",
      sendEmailToUnpaidCompany: false,
      mailUser: null,
      mailHost: null,
      mailPort: null,
      mailPassword: null,
      asaasApiKey: null,
      createdAt: at,
      updatedAt: at,
    };
    await c.var.db.insert(franchises).values(row);
    return c.json(await presentOne(c.var.db, row), 201);
  })
  /** GET /api/admin/franchises/{id} → AdminFranchiseAnswer. */
  .get("/:id", zv("param", idParam), async (c) => c.json(await presentOne(c.var.db, await loadFranchise(c.var.db, c.req.valid("param").id))))
  /** PUT /api/admin/franchises/{id} → AdminFranchiseAnswer. */
  .put("/:id", zv("param", idParam), zv("json", adminFranchiseInput), async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    await loadFranchise(c.var.db, id);
    const [updated] = await c.var.db
      .update(franchises)
      .set({ name: input.name, ...(input.primaryColor !== undefined ? { primaryColor: input.primaryColor } : {}), updatedAt: now() })
      .where(eq(franchises.id, id))
      .returning();
    await invalidateFranchise(c.env, id);
    return c.json(await presentOne(c.var.db, updated!));
  })
  /** DELETE /api/admin/franchises/{id} → 204 (see the file header). */
  .delete("/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const row = await loadFranchise(db, id);
    const hosts = await db.select().from(franchiseHostnames).where(eq(franchiseHostnames.franchiseId, id));
    const config = customHostnamesConfig(c.env);
    for (const h of hosts) {
      if (h.cfId && config) await deleteCustomHostname(config, h.cfId).catch(providerError);
    }
    await db.batch([
      db.update(companies).set({ franchiseId: null, franchiseRoleId: null, updatedAt: now() }).where(eq(companies.franchiseId, id)),
      db.delete(franchiseHostnames).where(eq(franchiseHostnames.franchiseId, id)),
      db.delete(franchiseAdmins).where(eq(franchiseAdmins.franchiseId, id)),
      db.delete(franchiseRoles).where(eq(franchiseRoles.franchiseId, id)),
      db.delete(franchises).where(eq(franchises.id, id)),
    ]);
    await invalidateFranchiseHosts(hosts.map((h) => h.hostname));
    const images = [row.logoKey, row.faviconKey].filter((k): k is string => !!k);
    if (images.length) c.executionCtx.waitUntil(c.env.FILES.delete(images));
    return c.body(null, 204);
  })
  /** POST /api/admin/franchises/{id}/hostnames → 201 FranchiseHostnameAnswer (see the file header). */
  .post("/:id/hostnames", zv("param", idParam), zv("json", adminHostnameInput), async (c) => {
    const { id } = c.req.valid("param");
    const { hostname, sslMethod } = c.req.valid("json");
    const db = c.var.db;
    await loadFranchise(db, id);
    const taken = await db.query.franchiseHostnames.findFirst({ where: eq(franchiseHostnames.hostname, hostname), columns: { id: true } });
    if (taken) throw new AppError("conflict", "That hostname belongs to a franchise already.", { hostname: "hostname_in_use" });
    const at = now();
    let row: FranchiseHostnameRow;
    if (isLocalHostname(hostname)) {
      row = { id: newId(), franchiseId: id, hostname, cfId: null, status: "local", sslStatus: null, verificationRecords: [], createdAt: at, updatedAt: at };
    } else {
      const config = customHostnamesConfig(c.env);
      if (!config) throw new AppError("validation_failed", "Custom hostnames need CF_API_TOKEN and CF_ZONE_ID.", { hostname: "cloudflare_not_configured" });
      const ch = await createCustomHostname(config, hostname, sslMethod).catch(providerError);
      row = {
        id: newId(),
        franchiseId: id,
        hostname,
        cfId: ch.id,
        status: ch.status as FranchiseHostnameRow["status"],
        sslStatus: ch.ssl?.status ?? null,
        verificationRecords: verificationRecordsOf(ch),
        createdAt: at,
        updatedAt: at,
      };
    }
    try {
      await db.insert(franchiseHostnames).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("conflict", "That hostname belongs to a franchise already.", { hostname: "hostname_in_use" });
      throw error;
    }
    await invalidateFranchiseHosts([hostname]);
    return c.json(presentHostname(row), 201);
  })
  /** GET /api/admin/franchises/{id}/hostnames/{hostnameId} → FranchiseHostnameAnswer, refreshed. */
  .get("/:id/hostnames/:hostnameId", zv("param", hostnameParam), async (c) => {
    const { id, hostnameId } = c.req.valid("param");
    const db = c.var.db;
    const row = await db.query.franchiseHostnames.findFirst({ where: and(eq(franchiseHostnames.id, hostnameId), eq(franchiseHostnames.franchiseId, id)) });
    if (!row) throw notFound("Hostname");
    const config = customHostnamesConfig(c.env);
    if (!row.cfId || !config) return c.json(presentHostname(row));
    const ch = await getCustomHostname(config, row.cfId).catch(providerError);
    const [updated] = await db
      .update(franchiseHostnames)
      .set({ status: ch.status as FranchiseHostnameRow["status"], sslStatus: ch.ssl?.status ?? null, verificationRecords: verificationRecordsOf(ch), updatedAt: now() })
      .where(eq(franchiseHostnames.id, row.id))
      .returning();
    return c.json(presentHostname(updated ?? row));
  })
  /** DELETE /api/admin/franchises/{id}/hostnames/{hostnameId} → 204. */
  .delete("/:id/hostnames/:hostnameId", zv("param", hostnameParam), async (c) => {
    const { id, hostnameId } = c.req.valid("param");
    const db = c.var.db;
    const row = await db.query.franchiseHostnames.findFirst({ where: and(eq(franchiseHostnames.id, hostnameId), eq(franchiseHostnames.franchiseId, id)) });
    if (!row) throw notFound("Hostname");
    const config = customHostnamesConfig(c.env);
    if (row.cfId && config) await deleteCustomHostname(config, row.cfId).catch(providerError);
    await db.delete(franchiseHostnames).where(eq(franchiseHostnames.id, row.id));
    await invalidateFranchiseHosts([row.hostname]);
    return c.body(null, 204);
  })
  /** POST /api/admin/franchises/{id}/admins {email} → 201 FranchiseAdminAnswer. */
  .post("/:id/admins", zv("param", idParam), zv("json", franchiseAdminInput), async (c) => {
    const { id } = c.req.valid("param");
    const { email } = c.req.valid("json");
    const db = c.var.db;
    await loadFranchise(db, id);
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    if (!user) throw new AppError("validation_failed", "Nobody has an account with that e-mail yet: the person signs up first.", { email: "user_not_found" });
    const at = now();
    await db.insert(franchiseAdmins).values({ franchiseId: id, userId: user.id, createdAt: at }).onConflictDoNothing();
    const body: FranchiseAdminAnswer = { id: user.id, name: user.name, email: user.email, createdAt: at };
    return c.json(body, 201);
  })
  /** DELETE /api/admin/franchises/{id}/admins/{userId} → 204; 404 when not an admin of it. */
  .delete("/:id/admins/:userId", zv("param", adminParam), async (c) => {
    const { id, userId } = c.req.valid("param");
    const removed = await c.var.db
      .delete(franchiseAdmins)
      .where(and(eq(franchiseAdmins.franchiseId, id), eq(franchiseAdmins.userId, userId)))
      .returning({ userId: franchiseAdmins.userId });
    if (!removed.length) throw notFound("Franchise administrator");
    return c.body(null, 204);
  });
