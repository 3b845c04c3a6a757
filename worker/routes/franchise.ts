/**
 * The franchise admin area's API (issue 14; spec §2 /franchise tabs, §3 "Franchise admin settings",
 * §7 `/franchise…`). Mounted at /api/franchise; every route:
 * - 404 `not_found` while FRANCHISE_MODE is off (spec §5), before any other check;
 * - 401 without a session, 403 `api_key_not_allowed` for a company API key, 403 `forbidden` for a
 *   user who administers no franchise (worker/middleware/franchise.ts);
 * - acts on `c.var.franchise` only (the franchise the user administers), never an id from the request.
 *
 * Settings, e-mail and integrations (this file):
 * - GET /api/franchise → FranchiseSettingsAnswer (never the SMTP password nor the Asaas key).
 * - PUT /api/franchise multipart FranchiseSettingsForm → FranchiseSettingsAnswer. Logo/favicon:
 *   PNG, JPEG, WebP or GIF ≤ 2 MB typed by their bytes (400 `invalid_image`, `image_too_large`).
 *   The SMTP password is stored encrypted (worker/lib/secrets.ts). Branding caches are invalidated.
 * - POST /api/franchise/email/test {to?} → {sent: true, to}: a test mail through the franchise's
 *   own SMTP (worker-mailer). 400 `mailHost` `not_configured` without host and user; 502
 *   `provider_unavailable` when the server refuses or cannot be reached.
 * - PUT /api/franchise/integrations {asaasApiKey} → {asaasApiKeySet}: stored encrypted, never answered.
 *
 * Companies, users, invoices, roles and permissions (helper FB) are mounted below, as sub-routers.
 */
import { Hono } from "hono";
import { asc, eq } from "drizzle-orm";
import { franchiseHostnames, franchises } from "../../schema";
import {
  franchiseEmailTestInput,
  franchiseIntegrationsInput,
  franchiseSettingsForm,
  type FranchiseEmailTestAnswer,
  type FranchiseIntegrationsAnswer,
} from "../../schema/validation/franchise";
import type { HonoEnv } from "../middleware/context";
import { requireUser } from "../middleware/auth";
import { requireFranchiseAdmin, requireFranchiseMode } from "../middleware/franchise";
import { mailSenderOfFranchise, presentFranchiseSettings } from "../lib/branding";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { invalidateFranchise } from "../lib/franchise-host";
import { storeImage } from "../lib/images";
import { encryptionSecret } from "../lib/keys";
import { sendThroughSmtp } from "../lib/mail";
import { multipartBody } from "../lib/multipart";
import { encryptSecret } from "../lib/secrets";
import { zv } from "../lib/validate";
import { franchiseRolesRoutes } from "./franchise-roles";
import { franchiseCompaniesRoutes } from "./franchise-companies";
import { franchiseInvoicesRoutes } from "./franchise-invoices";

/** The settings routes of the franchise the user administers (mounted inside franchiseRoutes). */
const settingsRoutes = new Hono<HonoEnv>()
  /** GET /api/franchise → FranchiseSettingsAnswer. */
  .get("/", async (c) => {
    const franchise = c.var.franchise;
    const hosts = await c.var.db
      .select()
      .from(franchiseHostnames)
      .where(eq(franchiseHostnames.franchiseId, franchise.id))
      .orderBy(asc(franchiseHostnames.hostname));
    return c.json(presentFranchiseSettings(franchise, hosts));
  })
  /** PUT /api/franchise multipart → FranchiseSettingsAnswer (see the file header). */
  .put("/", multipartBody("logo"), zv("form", franchiseSettingsForm), async (c) => {
    const input = c.req.valid("form");
    const franchise = c.var.franchise;
    const logoKey = input.logo instanceof File ? await storeImage(c.env.FILES, "franchises", input.logo, "logo") : undefined;
    const faviconKey = input.favicon instanceof File ? await storeImage(c.env.FILES, "franchises", input.favicon, "favicon") : undefined;
    const removeLogo = input.logo === "null" || input.logo === "";
    const removeFavicon = input.favicon === "null" || input.favicon === "";
    const mailPassword =
      input.mailPassword === undefined ? undefined : input.mailPassword === "null" ? null : await encryptSecret(encryptionSecret(c.env), input.mailPassword);
    const [updated] = await c.var.db
      .update(franchises)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(logoKey !== undefined ? { logoKey } : removeLogo ? { logoKey: null } : {}),
        ...(faviconKey !== undefined ? { faviconKey } : removeFavicon ? { faviconKey: null } : {}),
        ...(input.primaryColor !== undefined ? { primaryColor: input.primaryColor } : {}),
        ...(input.notInCompany !== undefined ? { notInCompany: input.notInCompany } : {}),
        ...(input.notPaid !== undefined ? { notPaid: input.notPaid } : {}),
        ...(input.sendEmailToUnpaidCompany !== undefined ? { sendEmailToUnpaidCompany: input.sendEmailToUnpaidCompany } : {}),
        ...(input.mailUser !== undefined ? { mailUser: input.mailUser } : {}),
        ...(input.mailHost !== undefined ? { mailHost: input.mailHost } : {}),
        ...(input.mailPort !== undefined ? { mailPort: input.mailPort } : {}),
        ...(mailPassword !== undefined ? { mailPassword } : {}),
        updatedAt: now(),
      })
      .where(eq(franchises.id, franchise.id))
      .returning();
    const row = updated ?? franchise;
    const stale = [
      logoKey !== undefined || removeLogo ? franchise.logoKey : null,
      faviconKey !== undefined || removeFavicon ? franchise.faviconKey : null,
    ].filter((k): k is string => !!k);
    if (stale.length) c.executionCtx.waitUntil(c.env.FILES.delete(stale));
    await invalidateFranchise(c.env, franchise.id);
    const hosts = await c.var.db
      .select()
      .from(franchiseHostnames)
      .where(eq(franchiseHostnames.franchiseId, franchise.id))
      .orderBy(asc(franchiseHostnames.hostname));
    return c.json(presentFranchiseSettings(row, hosts));
  })
  /** POST /api/franchise/email/test {to?} → FranchiseEmailTestAnswer (see the file header). */
  .post("/email/test", zv("json", franchiseEmailTestInput), async (c) => {
    const { to: requested } = c.req.valid("json");
    const to = requested ?? c.var.user.email;
    const sender = await mailSenderOfFranchise(c.env, c.var.franchise);
    if (!sender.smtp) {
      throw new AppError("validation_failed", "Set the SMTP host and user (an e-mail address) first.", { mailHost: "not_configured" });
    }
    try {
      await sendThroughSmtp(
        sender.smtp,
        { name: sender.name, email: sender.smtp.from },
        { to, subject: `${sender.name}: test e-mail`, text: `This is a test e-mail from ${sender.name}. Your SMTP settings work.` },
      );
    } catch (error) {
      console.warn("[franchise] test e-mail failed", c.var.franchise.id, error instanceof Error ? error.message : error);
      throw new AppError("provider_unavailable", "The SMTP server could not be reached or refused the mail. Check host, port, user and password.");
    }
    const body: FranchiseEmailTestAnswer = { sent: true, to };
    return c.json(body);
  })
  /** PUT /api/franchise/integrations {asaasApiKey} → FranchiseIntegrationsAnswer. */
  .put("/integrations", zv("json", franchiseIntegrationsInput), async (c) => {
    const { asaasApiKey } = c.req.valid("json");
    const stored = asaasApiKey === null ? null : await encryptSecret(encryptionSecret(c.env), asaasApiKey);
    await c.var.db.update(franchises).set({ asaasApiKey: stored, updatedAt: now() }).where(eq(franchises.id, c.var.franchise.id));
    const body: FranchiseIntegrationsAnswer = { asaasApiKeySet: stored !== null };
    return c.json(body);
  });

/**
 * /api/franchise: the mode gate, the session and the franchise-admin guard, then the sub-routers.
 * Helper FB mounts companies, users, invoices, roles and permissions here (one `.route` line each).
 */
export const franchiseRoutes = new Hono<HonoEnv>()
  .use(requireFranchiseMode, requireUser, requireFranchiseAdmin)
  .route("/", settingsRoutes)
  .route("/", franchiseRolesRoutes)
  .route("/", franchiseCompaniesRoutes)
  .route("/", franchiseInvoicesRoutes);
