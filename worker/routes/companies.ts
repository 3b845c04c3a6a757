/**
 * Companies (spec §3 Company, §7): the user's companies, the active company and its settings, the
 * activation code, the company's API keys (worker/lib/api-keys.ts), and invites.
 */
import { Hono } from "hono";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { companies, invites, memberRoles, members, roles, users, type UserRow } from "../../schema";
import { activeCodeInput, inviteInput, optOutWordsText } from "../../schema/validation/company";
import { apiKeyCreateInput } from "../../schema/validation/api-keys";
import { LOCALES, idSchema, nameSchema, timezoneSchema } from "../../schema/validation/common";
import { phoneSchema } from "../../schema/validation/phone";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireUser } from "../middleware/auth";
import { activationCodeHash, userMailLocale } from "../lib/accounts";
import { createApiKey, listApiKeys, revokeApiKey } from "../lib/api-keys";
import { now } from "../lib/db";
import { franchiseOrigin } from "../lib/franchise-host";
import { AppError, notFound } from "../lib/errors";
import { assertCanGrant } from "../lib/grants";
import { newId } from "../lib/ids";
import { storeImage } from "../lib/images";
import { presentInvites } from "../lib/invites";
import { sendMail } from "../lib/mail";
import { mailTexts } from "../lib/mail-texts";
import { fileUrl, presentCompany } from "../lib/present";
import { hit } from "../lib/rate-limit";
import { zv } from "../lib/validate";
import { requireFeature } from "../lib/features";
import { multipartBody } from "../lib/multipart";
import { subscriptionNow } from "../lib/subscription";

const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);
const booleanField = z.preprocess(
  (v) => (v === "true" || v === true ? true : v === "false" || v === false ? false : v),
  z.boolean({ error: "required" }),
);

/**
 * Multipart body of PUT /api/companies/active (spec §5): `timezone` and `showAttendantName` always;
 * `name` and `image` only when present; `image` sent as the text "null" (or empty) removes it.
 */
const companyForm = z.object({
  timezone: timezoneSchema,
  showAttendantName: booleanField,
  name: z.preprocess(blankToUndefined, nameSchema.optional()),
  image: z.union([z.instanceof(File), z.literal("null"), z.literal("")], { error: "invalid_image" }).optional(),
  language: z.preprocess(blankToUndefined, z.enum(LOCALES, { error: "invalid_language" }).optional()),
  whatsappNumber: z.preprocess(blankToUndefined, phoneSchema.optional()),
  // Stop words (issue 10 "Opt-out"): absent = unchanged, blank = the defaults.
  optOutWords: optOutWordsText.optional(),
});

const idParam = z.object({ id: idSchema });

/** An API key's id: a UUIDv7, or the 32 hex digits migration 0004 gave the keys it copied. */
const apiKeyIdParam = z.object({ id: z.union([idSchema, z.string().regex(/^[0-9a-f]{32}$/)], { error: "invalid_id" }) });

/** 403 `email_not_verified` unless the user proved they own their address (issue 8 point 4). */
function requireVerifiedEmail(user: Pick<UserRow, "emailVerifiedAt">): void {
  if (user.emailVerifiedAt === null) {
    throw new AppError("email_not_verified", "Verify your e-mail address first: enter the code we mailed you.");
  }
}

export const companiesRoutes = new Hono<HonoEnv>()
  .use(requireUser)
  /** GET /api/companies → {id, name, image, active}[]: the companies the user is a member of. */
  .get("/", async (c) => {
    const user = c.var.user;
    const rows = await c.var.db
      .select({ id: companies.id, name: companies.name, imageKey: companies.imageKey })
      .from(members)
      .innerJoin(companies, eq(companies.id, members.companyId))
      .where(eq(members.userId, user.id))
      .orderBy(asc(companies.name));
    return c.json(rows.map((r) => ({ id: r.id, name: r.name, image: fileUrl(r.imageKey), active: r.id === user.activeCompanyId })));
  })
  /**
   * POST /api/companies/invite/{id}/accept → {companyId}: the invited user joins with the invite's
   * roles. 403 `email_not_verified` until the user proved their address (POST
   * /api/me/verify-email; issue 8 point 4: an invite goes only to the owner of the address); 404
   * unless the invite is pending and addressed to the user's e-mail.
   */
  .post("/invite/:id/accept", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const user = c.var.user;
    requireVerifiedEmail(user);
    const invite = await db.query.invites.findFirst({
      where: and(eq(invites.id, id), eq(invites.email, user.email), eq(invites.status, "pending")),
    });
    if (!invite) throw notFound("Invite");
    const at = now();
    const existing = await db.query.members.findFirst({
      where: and(eq(members.companyId, invite.companyId), eq(members.userId, user.id)),
    });
    const validRoles = invite.roleIds.length
      ? await db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.companyId, invite.companyId), inArray(roles.id, invite.roleIds)))
      : [];
    const memberId = existing?.id ?? newId();
    await db.batch([
      db.update(invites).set({ status: "accepted", updatedAt: at }).where(eq(invites.id, invite.id)),
      ...(existing
        ? []
        : [db.insert(members).values({ id: memberId, companyId: invite.companyId, userId: user.id, createdAt: at, updatedAt: at })]),
      ...validRoles.map((r) =>
        db.insert(memberRoles).values({ companyId: invite.companyId, memberId, roleId: r.id }).onConflictDoNothing(),
      ),
      // A user with no active company starts using the one they just joined.
      ...(user.activeCompanyId ? [] : [db.update(users).set({ activeCompanyId: invite.companyId, updatedAt: at }).where(eq(users.id, user.id))]),
    ]);
    return c.json({ companyId: invite.companyId });
  })
  /**
   * POST /api/companies/invite/{id}/reject → 204. 403 `email_not_verified` until the user proved
   * their address; 404 unless pending and addressed to the user.
   */
  .post("/invite/:id/reject", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    requireVerifiedEmail(c.var.user);
    const updated = await c.var.db
      .update(invites)
      .set({ status: "rejected", updatedAt: now() })
      .where(and(eq(invites.id, id), eq(invites.email, c.var.user.email), eq(invites.status, "pending")))
      .returning({ id: invites.id });
    if (!updated.length) throw notFound("Invite");
    return c.body(null, 204);
  })
  // Everything below acts on the session's active company.
  .use(requireCompany)
  /** GET /api/companies/active → CompanyAnswer. 403 no_company when the user is in none. */
  .get("/active", async (c) => c.json(presentCompany(c.var.company, await subscriptionNow(c.env, c.var.db, c.var.company.id))))
  /**
   * PUT /api/companies/active multipart → CompanyAnswer. Permission settings_company.
   * 400 names the failing field; nothing is written then.
   */
  .put("/active", requirePermission("settings_company"), multipartBody("image"), zv("form", companyForm), async (c) => {
    const input = c.req.valid("form");
    const company = c.var.company;
    const removeImage = input.image === "null" || input.image === "";
    const newImageKey = input.image instanceof File ? await storeImage(c.env.FILES, "companies", input.image, "image") : undefined;
    const [updated] = await c.var.db
      .update(companies)
      .set({
        timezone: input.timezone,
        showAttendantName: input.showAttendantName,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.language !== undefined ? { language: input.language } : {}),
        ...(input.whatsappNumber !== undefined ? { whatsappNumber: input.whatsappNumber } : {}),
        ...(input.optOutWords !== undefined ? { optOutWords: input.optOutWords } : {}),
        ...(newImageKey !== undefined ? { imageKey: newImageKey } : removeImage ? { imageKey: null } : {}),
        updatedAt: now(),
      })
      .where(eq(companies.id, company.id))
      .returning();
    if ((newImageKey || removeImage) && company.imageKey) c.executionCtx.waitUntil(c.env.FILES.delete(company.imageKey));
    return c.json(presentCompany(updated ?? company));
  })
  /**
   * POST /api/companies/active-code {code} → CompanyAnswer: activates the company with the 6-digit
   * code mailed at registration (or by /api/me/verify-email/resend); when the owner enters it, it
   * verifies their e-mail as well. 400 invalid_code (field `code`); 429 after 10 tries an hour.
   */
  .post("/active-code", requirePermission("settings_company"), zv("json", activeCodeInput), async (c) => {
    const { code } = c.req.valid("json");
    const company = c.var.company;
    if (company.activatedAt !== null) return c.json(presentCompany(company));
    await hit(c.var.db, [{ key: `activate:${company.id}`, max: 10, windowMs: 60 * 60 * 1000 }]);
    if (company.activationCodeHash !== (await activationCodeHash(company.id, code))) {
      throw new AppError("validation_failed", "The activation code is not valid.", { code: "invalid_code" });
    }
    const at = now();
    const [updated] = await c.var.db
      .update(companies)
      .set({ activatedAt: at, activationCodeHash: null, updatedAt: at })
      .where(eq(companies.id, company.id))
      .returning();
    // The code went only to the owner's address: the owner entering it proves that address too.
    if (company.ownerId === c.var.user.id && c.var.user.emailVerifiedAt === null) {
      await c.var.db
        .update(users)
        .set({ emailVerifiedAt: at, emailCodeHash: null, emailCodeExpiresAt: null, updatedAt: at })
        .where(eq(users.id, c.var.user.id));
    }
    return c.json(presentCompany(updated ?? company));
  })
  /**
   * GET /api/companies/active/api-keys → ApiKeyAnswer[] (newest first, revoked ones with their
   * revokedAt): never the key nor its hash. Permission settings_company.
   */
  .get("/active/api-keys", requirePermission("settings_company"), requireFeature("integration"), async (c) => c.json(await listApiKeys(c.var.db, c.var.company.id)))
  /**
   * POST /api/companies/active/api-keys {name, scopes[]} → 201 ApiKeyCreatedAnswer: the key (`cv_…`)
   * shown this once. 400 names `name` or `scopes`. Permission settings_company.
   */
  .post("/active/api-keys", requirePermission("settings_company"), requireFeature("integration"), zv("json", apiKeyCreateInput), async (c) =>
    c.json(await createApiKey(c.var.db, c.var.company.id, c.var.memberId, c.req.valid("json")), 201),
  )
  /**
   * DELETE /api/companies/active/api-keys/{id} → ApiKeyAnswer: revoked; the key answers 401 from the
   * next request on. 404 for a key of another company. Permission settings_company.
   */
  .delete("/active/api-keys/:id", requirePermission("settings_company"), requireFeature("integration"), zv("param", apiKeyIdParam), async (c) =>
    c.json(await revokeApiKey(c.var.db, c.var.company.id, c.req.valid("param").id)),
  )
  /** GET /api/companies/invites → InviteAnswer[]: the company's pending invites. settings_members. */
  .get("/invites", requirePermission("settings_members"), async (c) => {
    const company = c.var.company;
    const rows = await c.var.db
      .select({ invite: invites, companyName: companies.name })
      .from(invites)
      .innerJoin(companies, eq(companies.id, invites.companyId))
      .where(and(eq(invites.companyId, company.id), eq(invites.status, "pending")))
      .orderBy(desc(invites.createdAt));
    return c.json(await presentInvites(c.var.db, rows));
  })
  /**
   * POST /api/companies/invite {email, roles} → 201 InviteAnswer. Re-inviting a pending address
   * updates its roles and mails again. 400 for unknown roles (field `roles`); 409 conflict when the
   * address already belongs to a member (field `email`) or the Owner role is asked for (field
   * `roles`). Permission settings_members. 403 `forbidden` (field `roles` = `permissions_not_held`)
   * when a role carries a permission the inviter does not hold (issue 8 point 2).
   */
  .post("/invite", requirePermission("settings_members"), zv("json", inviteInput), async (c) => {
    const { email, roles: roleIds } = c.req.valid("json");
    const db = c.var.db;
    const company = c.var.company;
    const wanted = [...new Set(roleIds)];
    const found = await db
      .select({ id: roles.id, isOwner: roles.isOwner, permissions: roles.permissions })
      .from(roles)
      .where(and(eq(roles.companyId, company.id), inArray(roles.id, wanted)));
    if (found.length !== wanted.length) throw new AppError("validation_failed", "Unknown role.", { roles: "invalid_id" });
    // Same rule as member update: otherwise settings_members could mint owners by invite.
    if (found.some((r) => r.isOwner)) throw new AppError("conflict", "The Owner role belongs to the company's owner only.", { roles: "owner_role" });
    assertCanGrant(c.var.permissions, found.flatMap((r) => r.permissions), "roles");
    const already = await db
      .select({ id: members.id })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.companyId, company.id), eq(users.email, email)));
    if (already.length) throw new AppError("conflict", "This person is already a member.", { email: "already_member" });
    await hit(db, [{ key: `invite:${company.id}`, max: 100, windowMs: 60 * 60 * 1000 }]);
    const at = now();
    const pending = await db.query.invites.findFirst({
      where: and(eq(invites.companyId, company.id), eq(invites.email, email), eq(invites.status, "pending")),
    });
    const id = pending?.id ?? newId();
    if (pending) {
      await db.update(invites).set({ roleIds: wanted, invitedBy: c.var.user.id, updatedAt: at }).where(eq(invites.id, id));
    } else {
      await db.insert(invites).values({ id, companyId: company.id, email, roleIds: wanted, invitedBy: c.var.user.id, status: "pending", createdAt: at, updatedAt: at });
    }
    // In the recipient's language when they have an account (their active company's, issue 9),
    // else in the inviting company's (mail-texts.ts).
    const invitee = await db.query.users.findFirst({ where: eq(users.email, email), columns: { activeCompanyId: true } });
    const mailLanguage = (invitee ? await userMailLocale(db, invitee) : null) ?? company.language;
    c.executionCtx.waitUntil(
      sendMail(c.env, {
        to: email,
        ...mailTexts(mailLanguage).invite({ app: c.env.APP_NAME, inviter: c.var.user.name, companyName: company.name, loginUrl: `${await franchiseOrigin(c.env, company.franchiseId ?? null, c.req.url)}/login` }),
        // A franchise company's invite carries the franchise's name and logo (issue 14).
        ...(company.franchiseId ? { companyId: company.id } : {}),
      }),
    );
    const invite = await db.query.invites.findFirst({ where: eq(invites.id, id) });
    if (!invite) throw notFound("Invite");
    const [answer] = await presentInvites(db, [{ invite, companyName: company.name }]);
    return c.json(answer, 201);
  })
  /** DELETE /api/companies/invite/{id} → 204: cancels a pending invite. 404 for another company's. */
  .delete("/invite/:id", requirePermission("settings_members"), zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const updated = await c.var.db
      .update(invites)
      .set({ status: "cancelled", updatedAt: now() })
      .where(and(eq(invites.id, id), eq(invites.companyId, c.var.company.id), eq(invites.status, "pending")))
      .returning({ id: invites.id });
    if (!updated.length) throw notFound("Invite");
    return c.body(null, 204);
  });
