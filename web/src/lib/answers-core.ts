/**
 * The runtime parsers of the answers every page may need before any screen is loaded: the token,
 * the session's user and permissions, the active company, runtime settings and franchise branding.
 * They live apart from answers.ts (which re-exports them) so the app's entry chunk, the session and
 * the route guards do not pull in the parsers of every feature and the schema modules those import
 * (issue 9 "Load only what a screen needs"). Each is typed against the shared type of
 * schema/api-types.ts, like the rest of answers.ts. The token, ok, runtime-settings and franchise-info
 * parsers are in answers-boot.ts (no zod: the pages before sign-in read only those).
 */
import { z } from "zod";
import type { CompanyAnswer, MeAnswer } from "../../../schema/api-types";

// The answers read before sign-in are parsed without zod (answers-boot.ts); re-exported here.
export { franchiseInfo, okAnswer, runtimeSettings, tokenAnswer, type FranchiseInfo } from "./answers-boot";

/** GET /api/me, PUT /api/me/change-active, PUT /api/user/change-status → MeAnswer. */
export const meAnswer: z.ZodType<MeAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  image: z.string().nullable(),
  status: z.enum(["online", "offline"]),
  activeCompany: z.string().nullable(),
  emailVerified: z.boolean(),
  platformAdmin: z.boolean().default(false),
  franchiseAdmin: z.boolean().optional(),
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
  disconnected: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), neverPaired: z.literal(true).optional() })),
  activated: z.boolean(),
  subscriptionValid: z.boolean(),
  optOutWords: z.array(z.string()).nullable().optional(),
});

/** One entry of GET /api/companies. */
export type CompanySummary = { id: string; name: string; image: string | null };
/** GET /api/companies → CompanySummary[] (extra keys such as `active` are dropped). */
export const companyList: z.ZodType<CompanySummary[]> = z.array(
  z.object({ id: z.string(), name: z.string(), image: z.string().nullable() }),
);
