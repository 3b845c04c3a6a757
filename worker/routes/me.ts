/**
 * The signed-in user (spec §7): profile, permissions, e-mail verification, invites, announcements,
 * active company, online status.
 */
import { Hono } from "hono";
import { and, desc, eq, gt, isNull, lte, notExists, or } from "drizzle-orm";
import { z } from "zod";
import { announcementSeen, announcements, companies, invites, members, users } from "../../schema";
import { announcementSeenInput, changeActiveInput, changeStatusInput, verifyEmailInput } from "../../schema/validation/auth";
import { nameSchema } from "../../schema/validation/common";
import { phoneSchema } from "../../schema/validation/phone";
import type { HonoEnv } from "../middleware/context";
import { loadMembership, requireUser } from "../middleware/auth";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { storeImage } from "../lib/images";
import { presentInvites } from "../lib/invites";
import { presentMe } from "../lib/present";
import { franchiseModeOn } from "../lib/franchise-host";
import { administeredFranchiseIds } from "../middleware/franchise";
import { clear, hit } from "../lib/rate-limit";
import { sendVerificationCode, verifyEmail } from "../lib/accounts";
import { localeFromHeader } from "../lib/mail-texts";
import { hubOf } from "../lib/realtime";
import { zv } from "../lib/validate";
import { multipartBody } from "../lib/multipart";

/** Multipart body of PUT /api/me. Empty strings count as absent. */
const profileForm = z
  .object({
    name: z.preprocess((v) => (v === "" ? undefined : v), nameSchema.optional()),
    phone: z.preprocess((v) => (v === "" ? undefined : v), phoneSchema.optional()),
    image: z.preprocess((v) => (v === "" ? undefined : v), z.instanceof(File, { error: "invalid_image" }).optional()),
  })
  .refine((v) => v.name !== undefined || v.image !== undefined, { error: "name_or_image_required", path: ["name"] });

const announcementsQuery = z.object({ code: z.string().trim().max(64).optional() });

export const me = new Hono<HonoEnv>()
  .use(requireUser)
  /** GET /api/me → MeAnswer. 401 without a valid token. */
  .get("/", async (c) =>
    c.json({
      ...presentMe(c.var.user, c.env),
      // Issue 14: whether the user administers a franchise (no lookup while FRANCHISE_MODE is off).
      franchiseAdmin: franchiseModeOn(c.env) && (await administeredFranchiseIds(c.var.db, c.var.user.id)).length > 0,
    }),
  )
  /**
   * PUT /api/me multipart {name?, image?, phone?} → MeAnswer. 400 when neither name nor image is
   * given (spec §5), or a field is invalid; images: PNG/JPEG/WebP/GIF ≤ 2 MiB, stored in R2.
   */
  .put("/", multipartBody("image"), zv("form", profileForm), async (c) => {
    const input = c.req.valid("form");
    const user = c.var.user;
    const imageKey = input.image ? await storeImage(c.env.FILES, "avatars", input.image, "image") : undefined;
    const [updated] = await c.var.db
      .update(users)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(imageKey !== undefined ? { imageKey } : {}),
        updatedAt: now(),
      })
      .where(eq(users.id, user.id))
      .returning();
    if (imageKey && user.imageKey) c.executionCtx.waitUntil(c.env.FILES.delete(user.imageKey));
    return c.json(presentMe(updated ?? user, c.env));
  })
  /** GET /api/me/permissions → string[]: the permission names of the active company ([] with none). */
  .get("/permissions", async (c) => {
    const user = c.var.user;
    if (!user.activeCompanyId) return c.json([]);
    const membership = await loadMembership(c.var.db, user.id, user.activeCompanyId);
    return c.json(membership ? [...membership.permissions] : []);
  })
  /**
   * GET /api/me/features → Feature[]: the active company's features (issue 14; worker/lib/features.ts),
   * in spec §6 order ([] with no company). The web hides what they do not cover (e.g. Settings →
   * Integration without `integration`); the permissions above already lack the others.
   */
  .get("/features", async (c) => {
    const user = c.var.user;
    if (!user.activeCompanyId) return c.json([]);
    const membership = await loadMembership(c.var.db, user.id, user.activeCompanyId);
    return c.json(membership ? [...membership.features] : []);
  })
  /**
   * POST /api/me/verify-email {code} → MeAnswer (`emailVerified: true`): proves the user owns their
   * address with the 6-digit code mailed at registration or by /resend (issue 8 point 4); it also
   * activates the companies the user owns that are not activated yet. Already verified: 200 as is.
   * 400 field `code`: `invalid_code` (wrong) or `expired_code` (older than 24 h); 429 after 10
   * tries an hour.
   */
  .post("/verify-email", zv("json", verifyEmailInput), async (c) => {
    const { code } = c.req.valid("json");
    const user = c.var.user;
    if (user.emailVerifiedAt !== null) return c.json(presentMe(user, c.env));
    await hit(c.var.db, [{ key: `verify-email:${user.id}`, max: 10, windowMs: 60 * 60 * 1000 }]);
    const updated = await verifyEmail(c.var.db, user, code);
    await clear(c.var.db, `verify-email:${user.id}`);
    return c.json(presentMe(updated, c.env));
  })
  /**
   * POST /api/me/verify-email/resend → 204: mails a new verification code (the previous one stops
   * working), in the `Accept-Language` the client sent (else the active company's language). 409 `conflict` when the address is already verified; 429 `rate_limited` (Retry-After)
   * more than once a minute or five times an hour.
   */
  .post("/verify-email/resend", async (c) => {
    const user = c.var.user;
    if (user.emailVerifiedAt !== null) throw new AppError("conflict", "Your e-mail address is already verified.");
    await hit(c.var.db, [
      { key: `verify-resend:minute:${user.id}`, max: 1, windowMs: 60 * 1000 },
      { key: `verify-resend:hour:${user.id}`, max: 5, windowMs: 60 * 60 * 1000 },
    ]);
    await sendVerificationCode(c.env, c.var.db, user, localeFromHeader(c.req.header("Accept-Language")));
    return c.body(null, 204);
  })
  /**
   * GET /api/me/invites → InviteAnswer[]: pending invites addressed to the user's e-mail. An
   * unverified address sees [] (not 403: a header badge polling this keeps working, and the client
   * reads `emailVerified` of GET /api/me to show "verify your e-mail" instead), issue 8 point 4.
   */
  .get("/invites", async (c) => {
    if (c.var.user.emailVerifiedAt === null) return c.json([]);
    const rows = await c.var.db
      .select({ invite: invites, companyName: companies.name })
      .from(invites)
      .innerJoin(companies, eq(companies.id, invites.companyId))
      .where(and(eq(invites.email, c.var.user.email), eq(invites.status, "pending")))
      .orderBy(desc(invites.createdAt));
    return c.json(await presentInvites(c.var.db, rows));
  })
  /**
   * GET /api/me/announcements?code= → {results}: announcements for `code` and those for everywhere
   * (without `code`: only those for everywhere) that the user has not marked seen, inside their
   * dates (`startsAt` ≤ now < `endsAt`, either open) and meant for every company (audience `all`;
   * issue 12), newest first, at most 20.
   */
  .get("/announcements", zv("query", announcementsQuery), async (c) => {
    const { code } = c.req.valid("query");
    const db = c.var.db;
    const userId = c.var.user.id;
    const at = now();
    const rows = await db
      .select()
      .from(announcements)
      .where(
        and(
          code ? or(eq(announcements.code, code), isNull(announcements.code)) : isNull(announcements.code),
          eq(announcements.audience, "all"),
          or(isNull(announcements.startsAt), lte(announcements.startsAt, at)),
          or(isNull(announcements.endsAt), gt(announcements.endsAt, at)),
          notExists(
            db
              .select({ one: announcementSeen.userId })
              .from(announcementSeen)
              .where(and(eq(announcementSeen.userId, userId), eq(announcementSeen.announcementId, announcements.id))),
          ),
        ),
      )
      .orderBy(desc(announcements.createdAt))
      .limit(20);
    return c.json({
      results: rows.map((a) => ({ id: a.id, title: a.title, body: a.body, url: a.url, createdAt: a.createdAt })),
    });
  })
  /** POST /api/me/announcements/seen {id} → 204. 404 for an unknown announcement. */
  .post("/announcements/seen", zv("json", announcementSeenInput), async (c) => {
    const { id } = c.req.valid("json");
    const db = c.var.db;
    const found = await db.query.announcements.findFirst({ where: eq(announcements.id, id), columns: { id: true } });
    if (!found) throw notFound("Announcement");
    await db
      .insert(announcementSeen)
      .values({ userId: c.var.user.id, announcementId: id, seenAt: now() })
      .onConflictDoNothing();
    return c.body(null, 204);
  })
  /** PUT /api/me/change-active {companyId} → MeAnswer. 404 when the user is not a member there. */
  .put("/change-active", zv("json", changeActiveInput), async (c) => {
    const { companyId } = c.req.valid("json");
    const db = c.var.db;
    const user = c.var.user;
    const member = await db.query.members.findFirst({
      where: and(eq(members.userId, user.id), eq(members.companyId, companyId)),
      columns: { id: true },
    });
    if (!member) throw notFound("Company");
    const [updated] = await db
      .update(users)
      .set({ activeCompanyId: companyId, updatedAt: now() })
      .where(eq(users.id, user.id))
      .returning();
    return c.json(presentMe(updated ?? user, c.env));
  });

/**
 * PUT /api/user/change-status {status?} → MeAnswer (spec §4 Online status): sets the status, or
 * toggles it when the body names none.
 */
export const userRoutes = new Hono<HonoEnv>()
  .use(requireUser)
  .put("/change-status", async (c) => {
    const raw = await c.req.text();
    let body: unknown = {};
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        throw new AppError("validation_failed", "Malformed JSON body.", { _: "invalid_json" });
      }
    }
    const parsed = changeStatusInput.safeParse(body);
    if (!parsed.success) throw new AppError("validation_failed", "Invalid input: status.", { status: "invalid_status" });
    const user = c.var.user;
    const status = parsed.data.status ?? (user.status === "online" ? "offline" : "online");
    const [updated] = await c.var.db.update(users).set({ status, updatedAt: now() }).where(eq(users.id, user.id)).returning();
    // Every company of the user sees the change live (transfer pickers, member lists).
    const memberships = await c.var.db.select({ companyId: members.companyId }).from(members).where(eq(members.userId, user.id));
    c.executionCtx.waitUntil(
      Promise.all(memberships.map((m) => hubOf(c.env, m.companyId).publish({ type: "presence", userId: user.id, status }))).catch(() => undefined),
    );
    return c.json(presentMe(updated ?? user, c.env));
  });
