/**
 * Runtime parsers of the API answers the web reads, one per type of schema/api-types.ts. Each is
 * typed against the shared type, so a change of the contract fails to compile here, and an
 * unexpected answer fails loudly at the edge instead of deep in a component.
 */
import { z } from "zod";
import type {
  AnnouncementAnswer,
  CompanyAnswer,
  InviteAnswer,
  MeAnswer,
  RuntimeSettings,
} from "../../../schema/api-types";
import type { TokenAnswer } from "../../../schema/validation/auth";

/** POST /api/login, /api/register, /api/reset-password → {token}. */
export const tokenAnswer: z.ZodType<TokenAnswer> = z.object({ token: z.string().min(1) });

/** POST /api/forgot-password → {ok: true}. */
export const okAnswer = z.object({ ok: z.literal(true) });

/** GET /api/me, PUT /api/me/change-active, PUT /api/user/change-status → MeAnswer. */
export const meAnswer: z.ZodType<MeAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  image: z.string().nullable(),
  status: z.enum(["online", "offline"]),
  activeCompany: z.string().nullable(),
});

/** GET /api/me/permissions → permission names. */
export const permissionsAnswer = z.array(z.string());

/** GET /api/companies/active, POST /api/companies/active-code → CompanyAnswer. */
export const companyAnswer: z.ZodType<CompanyAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  timezone: z.string(),
  language: z.string(),
  showAttendantName: z.boolean(),
  apiKeyHint: z.string().nullable(),
  whatsappNumber: z.string().nullable(),
  owner: z.string(),
  plan: z.enum(["trial", "monthly", "semiannual", "yearly", "lifetime"]),
  paymentStatus: z.enum(["trial", "paid", "pending", "unpaid"]),
  dueDate: z.number(),
  disconnected: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  activated: z.boolean(),
  subscriptionValid: z.boolean(),
});

/** One entry of GET /api/companies. */
export type CompanySummary = { id: string; name: string; image: string | null };
/** GET /api/companies → CompanySummary[] (extra keys such as `active` are dropped). */
export const companyList: z.ZodType<CompanySummary[]> = z.array(
  z.object({ id: z.string(), name: z.string(), image: z.string().nullable() }),
);

/** One entry of GET /api/me/invites. */
export const inviteAnswer: z.ZodType<InviteAnswer> = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(["pending", "accepted", "rejected", "cancelled"]),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  company: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.number(),
});

/** GET /api/me/announcements?code= → {results}. */
export const announcementList: z.ZodType<{ results: AnnouncementAnswer[] }> = z.object({
  results: z.array(
    z.object({ id: z.string(), title: z.string(), body: z.string(), url: z.string().nullable(), createdAt: z.number() }),
  ),
});

/** GET /api/runtime-settings → RuntimeSettings. */
export const runtimeSettings: z.ZodType<RuntimeSettings> = z.object({
  appName: z.string(),
  franchiseMode: z.boolean(),
  primaryColor: z.string(),
});

/** GET /api/infos: the franchise's branding (spec §3 "Franchise info"). */
export type FranchiseInfo = { name: string | null; logo: string | null; favicon: string | null };
/** GET /api/infos → FranchiseInfo; unexpected fields degrade to null. */
export const franchiseInfo: z.ZodType<FranchiseInfo> = z.object({
  name: z.string().nullable().catch(null),
  logo: z.string().nullable().catch(null),
  favicon: z.string().nullable().catch(null),
});
