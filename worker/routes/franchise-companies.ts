/**
 * A franchise's companies and users (issue 14 "The franchise admin area"; spec §2 /franchise
 * companies, §7 `/franchise/companies`, `/franchise/users`). Mounted inside /api/franchise
 * (worker/routes/franchise.ts): FRANCHISE_MODE off → 404, no session → 401, not a franchise
 * administrator → 403; every route acts on `c.var.franchise` only, so another franchise's company
 * or administrator answers 404.
 *
 * - GET /api/franchise/companies?cursor=&search=&limit= → FranchisePage<FranchiseCompanyAnswer> by
 *   name (search: name contains).
 * - POST /api/franchise/companies {name, ownerEmail, ownerName?, plan?, franchiseRoleId?} → 201
 *   FranchiseCompanyAnswer: a company under the franchise, activated, with the Owner role and the
 *   starter roles (as registration makes them), owned by the user with `ownerEmail`. A person
 *   without an account gets one (no usable password) and a link to choose a password, valid
 *   OWNER_LINK_TTL_MS; a person with one is told by e-mail. Plan `trial` starts the trial
 *   (TRIAL_DAYS); another plan starts `pending` until its first period ends. 404 for a
 *   `franchiseRoleId` of another franchise.
 * - PUT /api/franchise/companies/{id} {name?, plan?, franchiseRoleId?, suspended?} →
 *   FranchiseCompanyAnswer. `suspended: true` suspends the company (its members get the same 402
 *   `payment_required` as an unpaid company; `companies.suspended_at`), `false` resumes it.
 *   `franchiseRoleId: null` removes the role (no franchise limit on features). The company's open
 *   sessions are told to reload their permissions when the role changes.
 * - GET /api/franchise/users?cursor=&search=&limit= → `{admins, cursor, total, results}`: the
 *   franchise's administrators (all) and a page of the users of its companies (one entry per
 *   membership, by name; search: name or e-mail contains).
 * - POST /api/franchise/admins {email, name?} → 201 FranchiseAdminAnswer: that person administers
 *   the franchise too (an account is made for a new address, with a link to choose a password).
 *   Idempotent.
 * - DELETE /api/franchise/admins/{userId} → 204; 404 for someone who does not administer this
 *   franchise; 409 `conflict` for the last administrator.
 */
import { Hono } from "hono";
import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import {
  companies,
  franchiseAdmins,
  franchiseRoles,
  memberRoles,
  members,
  passwordResets,
  roles,
  users,
  type CompanyRow,
  type FranchiseRow,
  type UserRow,
} from "../../schema";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import { DEFAULT_LOCALE, idSchema } from "../../schema/validation/common";
import {
  franchiseAdminInput,
  franchiseCompanyCreateInput,
  franchiseCompanyUpdateInput,
  franchisePageQuery,
  type FranchiseAdminAnswer,
  type FranchiseCompanyAnswer,
  type FranchiseMemberAnswer,
  type FranchisePage,
  type FranchiseUsersAnswer,
} from "../../schema/validation/franchise";
import type { AppEnv } from "../env";
import type { HonoEnv } from "../middleware/context";
import { DEFAULT_TIMEZONE, OWNER_ROLE_TEXT, STARTER_ROLES } from "../lib/accounts";
import { likePattern } from "../lib/contacts";
import { randomToken, sha256Hex } from "../lib/crypto";
import { decodeTextCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { sendMail } from "../lib/mail";
import { hashPassword } from "../lib/password";
import { refreshAccess } from "../lib/realtime";
import { trialMs } from "../lib/subscription";
import { zv } from "../lib/validate";
import { franchiseOrigin } from "../lib/franchise-host";
import { findFranchiseRole } from "./franchise-roles";

const idParam = z.object({ id: idSchema });
const userIdParam = z.object({ userId: idSchema });

/** How long the "choose your password" link of an account made for a new owner or admin lasts (ms): 7 days. */
export const OWNER_LINK_TTL_MS = 7 * 24 * 3600 * 1000;

const DAY_MS = 24 * 3600 * 1000;
/** Far future (9999-12-31): a lifetime plan's end. */
const FOREVER = 253402214400000;

/** The first period a plan other than trial gives before its payment (ms). */
const PLAN_PERIOD_MS: Record<string, number> = { monthly: 30 * DAY_MS, semiannual: 182 * DAY_MS, yearly: 365 * DAY_MS };

/** The access state a company starts with on `plan` at `at` (see the file header). */
function planStart(env: AppEnv, plan: CompanyRow["plan"], at: number): Pick<CompanyRow, "plan" | "paymentStatus" | "dueDate"> {
  if (plan === "trial") return { plan, paymentStatus: "trial", dueDate: at + trialMs(env) };
  if (plan === "lifetime") return { plan, paymentStatus: "pending", dueDate: FOREVER };
  return { plan, paymentStatus: "pending", dueDate: at + (PLAN_PERIOD_MS[plan] ?? 30 * DAY_MS) };
}

/** The mail telling someone a franchise made them a company's owner or the franchise's administrator. */
const GRANT_TEXT: Record<string, (a: { franchise: string; what: string; link: string; created: boolean }) => { subject: string; text: string }> = {
  "pt-BR": (a) => ({
    subject: `${a.franchise}: ${a.what}`,
    text: `${a.franchise}: ${a.what}.\n${a.created ? `Crie sua senha em ${a.link} (o link vale 7 dias).` : `Entre em ${a.link}.`}\n`,
  }),
  "pt-PT": (a) => ({
    subject: `${a.franchise}: ${a.what}`,
    text: `${a.franchise}: ${a.what}.\n${a.created ? `Crie a sua palavra-passe em ${a.link} (a ligação é válida 7 dias).` : `Inicie sessão em ${a.link}.`}\n`,
  }),
  "en-US": (a) => ({
    subject: `${a.franchise}: ${a.what}`,
    text: `${a.franchise}: ${a.what}.\n${a.created ? `Choose your password at ${a.link} (the link lasts 7 days).` : `Sign in at ${a.link}.`}\n`,
  }),
  "es-ES": (a) => ({
    subject: `${a.franchise}: ${a.what}`,
    text: `${a.franchise}: ${a.what}.\n${a.created ? `Elija su contraseña en ${a.link} (el enlace vale 7 días).` : `Inicie sesión en ${a.link}.`}\n`,
  }),
};

const WHAT_OWNER: Record<string, (company: string) => string> = {
  "pt-BR": (c) => `a empresa ${c} foi criada para você`,
  "pt-PT": (c) => `a empresa ${c} foi criada para si`,
  "en-US": (c) => `the company ${c} was created for you`,
  "es-ES": (c) => `la empresa ${c} fue creada para usted`,
};
const WHAT_ADMIN: Record<string, () => string> = {
  "pt-BR": () => "você agora administra a franquia",
  "pt-PT": () => "agora administra a franquia",
  "en-US": () => "you now administer the franchise",
  "es-ES": () => "ahora administra la franquicia",
};

/**
 * The user with `email`, or a new one made for it (name `name` or the address's local part, a
 * random password nobody knows, e-mail unverified) with a single-use link to choose a password
 * (`password_resets`, valid OWNER_LINK_TTL_MS). `link`: where the mail sends them, on `origin`
 * (the franchise's address: worker/lib/franchise-host.ts `franchiseOrigin`; PUBLIC_URL by default).
 */
export async function userForGrant(env: AppEnv, db: Db, email: string, name: string | undefined, origin: string = env.PUBLIC_URL): Promise<{ user: UserRow; created: boolean; link: string }> {
  const existing = await db.query.users.findFirst({ where: eq(users.email, email) });
  if (existing) return { user: existing, created: false, link: `${origin}/login` };
  const at = now();
  const password = await hashPassword(randomToken(32));
  const local = email.split("@")[0] ?? "";
  const user: UserRow = {
    id: newId(),
    name: name ?? (/[\p{L}\p{N}]/u.test(local) && local.length >= 2 ? local.slice(0, 120) : email.slice(0, 120)),
    email,
    phone: null,
    imageKey: null,
    passwordHash: password.hash,
    passwordSalt: password.salt,
    passwordIterations: password.iterations,
    tokenVersion: 0,
    activeCompanyId: null,
    status: "offline",
    emailVerifiedAt: null,
    emailCodeHash: null,
    emailCodeExpiresAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const token = randomToken(32);
  try {
    await db.batch([
      db.insert(users).values(user),
      db.insert(passwordResets).values({ tokenHash: await sha256Hex(token), userId: user.id, expiresAt: at + OWNER_LINK_TTL_MS, usedAt: null, createdAt: at }),
    ]);
  } catch (error) {
    // A concurrent request made the same account: use it.
    if (isUniqueViolation(error)) {
      const raced = await db.query.users.findFirst({ where: eq(users.email, email) });
      if (raced) return { user: raced, created: false, link: `${origin}/login` };
    }
    throw error;
  }
  return { user, created: true, link: `${origin}/reset-password?token=${encodeURIComponent(token)}` };
}

/** The company `id` of franchise `franchiseId`; 404 otherwise. */
async function findCompany(db: Db, franchiseId: string, id: string): Promise<CompanyRow> {
  const row = await db.query.companies.findFirst({ where: and(eq(companies.id, id), eq(companies.franchiseId, franchiseId)) });
  if (!row) throw notFound("Company");
  return row;
}

/** The answers of `rows` (two lookups: owners and role names). */
async function presentCompanies(db: Db, franchiseId: string, rows: CompanyRow[]): Promise<FranchiseCompanyAnswer[]> {
  const ownerIds = [...new Set(rows.map((r) => r.ownerId))];
  const roleIds = [...new Set(rows.map((r) => r.franchiseRoleId).filter((v): v is string => !!v))];
  const [owners, roleRows] = await Promise.all([
    ownerIds.length ? db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ownerIds)) : [],
    roleIds.length
      ? db
          .select({ id: franchiseRoles.id, name: franchiseRoles.name })
          .from(franchiseRoles)
          .where(and(eq(franchiseRoles.franchiseId, franchiseId), inArray(franchiseRoles.id, roleIds)))
      : [],
  ]);
  const ownerOf = new Map(owners.map((o) => [o.id, o]));
  const roleOf = new Map(roleRows.map((r) => [r.id, r.name]));
  return rows.map((r) => {
    const roleName = r.franchiseRoleId ? (roleOf.get(r.franchiseRoleId) ?? null) : null;
    return {
      id: r.id,
      name: r.name,
      owner: ownerOf.get(r.ownerId) ?? null,
      plan: r.plan,
      paymentStatus: r.paymentStatus,
      dueDate: r.dueDate,
      franchiseRoleId: roleName === null ? null : r.franchiseRoleId,
      franchiseRoleName: roleName,
      suspended: r.suspendedAt !== null,
      createdAt: r.createdAt,
    };
  });
}

/** The user ids of the members of `companyId` (to tell their sessions to reload). */
async function memberUserIds(db: Db, companyId: string): Promise<string[]> {
  const rows = await db.select({ userId: members.userId }).from(members).where(eq(members.companyId, companyId));
  return rows.map((r) => r.userId);
}

/** The franchise's administrators, by name. */
async function listAdmins(db: Db, franchiseId: string): Promise<FranchiseAdminAnswer[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, createdAt: franchiseAdmins.createdAt })
    .from(franchiseAdmins)
    .innerJoin(users, eq(users.id, franchiseAdmins.userId))
    .where(eq(franchiseAdmins.franchiseId, franchiseId))
    .orderBy(asc(users.name), asc(users.id));
}

/** Mails `to` that the franchise granted them `what` (in the franchise's product language). */
function grantMail(env: AppEnv, franchise: FranchiseRow, to: string, what: string, link: string, created: boolean, locale: string, companyId?: string) {
  const text = (GRANT_TEXT[locale] ?? GRANT_TEXT[DEFAULT_LOCALE]!)({ franchise: franchise.name, what, link, created });
  return sendMail(env, { to, ...text, ...(companyId ? { companyId } : {}) });
}

/** /api/franchise/companies…, /users, /admins… (mounted inside franchiseRoutes). */
export const franchiseCompaniesRoutes = new Hono<HonoEnv>()
  /** GET /api/franchise/companies?cursor=&search=&limit= → FranchisePage<FranchiseCompanyAnswer>. */
  .get("/companies", zv("query", franchisePageQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const where = and(eq(companies.franchiseId, franchiseId), q.search ? sql`${companies.name} LIKE ${likePattern(q.search)} ESCAPE '\\'` : undefined);
    const after = decodeTextCursor(q.cursor);
    const rows = await db
      .select()
      .from(companies)
      .where(after ? and(where, sql`(${companies.name}, ${companies.id}) > (${after[0]}, ${after[1]})`) : where)
      .orderBy(asc(companies.name), asc(companies.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(companies).where(where);
    const answer: FranchisePage<FranchiseCompanyAnswer> = {
      cursor: rows.length > q.limit && last ? encodeCursor([last.name, last.id]) : null,
      total,
      results: await presentCompanies(db, franchiseId, page),
    };
    return c.json(answer);
  })
  /** POST /api/franchise/companies → 201 FranchiseCompanyAnswer (see the file header). */
  .post("/companies", zv("json", franchiseCompanyCreateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const franchise = c.var.franchise;
    if (input.franchiseRoleId) await findFranchiseRole(db, franchise.id, input.franchiseRoleId);
    const { user: owner, created, link } = await userForGrant(c.env, db, input.ownerEmail, input.ownerName, await franchiseOrigin(c.env, franchise.id, c.req.url));
    const at = now();
    const companyId = newId();
    const language = DEFAULT_LOCALE;
    const ownerRole = OWNER_ROLE_TEXT[language] ?? OWNER_ROLE_TEXT[DEFAULT_LOCALE]!;
    const ownerRoleId = newId();
    const memberId = newId();
    const company: CompanyRow = {
      id: companyId,
      name: input.name,
      imageKey: null,
      timezone: DEFAULT_TIMEZONE,
      language,
      showAttendantName: false,
      apiKeyHash: null,
      apiKeyHint: null,
      whatsappNumber: null,
      ownerId: owner.id,
      ...planStart(c.env, input.plan ?? "trial", at),
      disconnected: [],
      activationCodeHash: null,
      // The franchise vouches for its client: no activation code.
      activatedAt: at,
      franchiseId: franchise.id,
      franchiseRoleId: input.franchiseRoleId ?? null,
      suspendedAt: null,
      unpaidMailDay: null,
      optOutWords: null,
      createdAt: at,
      updatedAt: at,
    };
    await db.batch([
      db.insert(companies).values(company),
      db.insert(roles).values({ id: ownerRoleId, companyId, name: ownerRole.name, description: ownerRole.description, permissions: [...COMPANY_PERMISSIONS], isOwner: true, createdAt: at, updatedAt: at }),
      db.insert(roles).values(
        STARTER_ROLES.map((role) => {
          const text = role.text[language] ?? role.text[DEFAULT_LOCALE]!;
          return { id: newId(), companyId, name: text.name, description: text.description, permissions: [...role.permissions], isOwner: false, createdAt: at, updatedAt: at };
        }),
      ),
      db.insert(members).values({ id: memberId, companyId, userId: owner.id, createdAt: at, updatedAt: at }),
      db.insert(memberRoles).values({ companyId, memberId, roleId: ownerRoleId }),
      ...(owner.activeCompanyId ? [] : [db.update(users).set({ activeCompanyId: companyId, updatedAt: at }).where(eq(users.id, owner.id))]),
    ]);
    c.executionCtx.waitUntil(grantMail(c.env, franchise, owner.email, (WHAT_OWNER[language] ?? WHAT_OWNER[DEFAULT_LOCALE]!)(input.name), link, created, language, companyId));
    const [answer] = await presentCompanies(db, franchise.id, [company]);
    return c.json(answer, 201);
  })
  /** PUT /api/franchise/companies/{id} → FranchiseCompanyAnswer (see the file header). */
  .put("/companies/:id", zv("param", idParam), zv("json", franchiseCompanyUpdateInput), async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const company = await findCompany(db, franchiseId, id);
    if (input.franchiseRoleId) await findFranchiseRole(db, franchiseId, input.franchiseRoleId);
    const at = now();
    const set: Partial<CompanyRow> = { updatedAt: at };
    if (input.name !== undefined) set.name = input.name;
    if (input.plan !== undefined && input.plan !== company.plan) {
      const start = planStart(c.env, input.plan, at);
      set.plan = input.plan;
      // Leaving the trial (or entering it) starts the new plan's period; a paid state is kept.
      if (company.paymentStatus === "trial" || input.plan === "trial" || input.plan === "lifetime") {
        set.paymentStatus = start.paymentStatus;
        set.dueDate = Math.max(company.dueDate, start.dueDate);
      }
    }
    if (input.franchiseRoleId !== undefined) set.franchiseRoleId = input.franchiseRoleId;
    if (input.suspended !== undefined) set.suspendedAt = input.suspended ? (company.suspendedAt ?? at) : null;
    const [updated] = await db
      .update(companies)
      .set(set)
      .where(and(eq(companies.id, id), eq(companies.franchiseId, franchiseId)))
      .returning();
    if (input.franchiseRoleId !== undefined && input.franchiseRoleId !== company.franchiseRoleId) {
      await refreshAccess(c.env, id, await memberUserIds(db, id), "permissions_changed");
    }
    const [answer] = await presentCompanies(db, franchiseId, [updated ?? company]);
    return c.json(answer);
  })
  /** GET /api/franchise/users?cursor=&search=&limit= → FranchiseUsersAnswer (see the file header). */
  .get("/users", zv("query", franchisePageQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const pattern = q.search ? likePattern(q.search) : null;
    const where = and(
      eq(companies.franchiseId, franchiseId),
      pattern ? or(sql`${users.name} LIKE ${pattern} ESCAPE '\\'`, sql`${users.email} LIKE ${pattern} ESCAPE '\\'`) : undefined,
    );
    const after = decodeTextCursor(q.cursor);
    const rows = await db
      .select({ memberId: members.id, id: users.id, name: users.name, email: users.email, companyId: companies.id, companyName: companies.name })
      .from(members)
      .innerJoin(companies, eq(companies.id, members.companyId))
      .innerJoin(users, eq(users.id, members.userId))
      .where(after ? and(where, sql`(${users.name}, ${members.id}) > (${after[0]}, ${after[1]})`) : where)
      .orderBy(asc(users.name), asc(members.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    const [{ total } = { total: 0 }] = await db
      .select({ total: count() })
      .from(members)
      .innerJoin(companies, eq(companies.id, members.companyId))
      .innerJoin(users, eq(users.id, members.userId))
      .where(where);
    const answer: FranchiseUsersAnswer = {
      admins: await listAdmins(db, franchiseId),
      cursor: rows.length > q.limit && last ? encodeCursor([last.name, last.memberId]) : null,
      total,
      results: page.map(({ memberId: _m, ...r }): FranchiseMemberAnswer => r),
    };
    return c.json(answer);
  })
  /** POST /api/franchise/admins {email, name?} → 201 FranchiseAdminAnswer (see the file header). */
  .post("/admins", zv("json", franchiseAdminInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const franchise = c.var.franchise;
    const { user, created, link } = await userForGrant(c.env, db, input.email, input.name, await franchiseOrigin(c.env, franchise.id, c.req.url));
    const at = now();
    const inserted = await db.insert(franchiseAdmins).values({ franchiseId: franchise.id, userId: user.id, createdAt: at }).onConflictDoNothing().returning();
    if (inserted.length) {
      c.executionCtx.waitUntil(grantMail(c.env, franchise, user.email, (WHAT_ADMIN[DEFAULT_LOCALE] ?? WHAT_ADMIN["en-US"]!)(), link, created, DEFAULT_LOCALE));
    }
    const row = await db.query.franchiseAdmins.findFirst({ where: and(eq(franchiseAdmins.franchiseId, franchise.id), eq(franchiseAdmins.userId, user.id)) });
    const answer: FranchiseAdminAnswer = { id: user.id, name: user.name, email: user.email, createdAt: row?.createdAt ?? at };
    return c.json(answer, 201);
  })
  /** DELETE /api/franchise/admins/{userId} → 204 (see the file header). */
  .delete("/admins/:userId", zv("param", userIdParam), async (c) => {
    const { userId } = c.req.valid("param");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const admins = await db.select({ userId: franchiseAdmins.userId }).from(franchiseAdmins).where(eq(franchiseAdmins.franchiseId, franchiseId));
    if (!admins.some((a) => a.userId === userId)) throw notFound("Administrator");
    if (admins.length === 1) throw new AppError("conflict", "The franchise needs at least one administrator.", { userId: "last_admin" });
    await db.delete(franchiseAdmins).where(and(eq(franchiseAdmins.franchiseId, franchiseId), eq(franchiseAdmins.userId, userId)));
    return c.body(null, 204);
  });
