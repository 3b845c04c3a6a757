/** Request bodies of the account calls (spec §7; issue "Foundation" accounts section). */
import { z } from "zod";
import { emailSchema, passwordSchema, idSchema } from "./common";

/** POST /api/login */
export const loginInput = z.object({
  email: emailSchema,
  password: z.string({ error: "required" }).min(1, { error: "required" }).max(256, { error: "too_long" }),
});
export type LoginInput = z.input<typeof loginInput>;

/** POST /api/forgot-password */
export const forgotPasswordInput = z.object({ email: emailSchema });

/** POST /api/reset-password */
export const resetPasswordInput = z.object({
  token: z.string({ error: "required" }).min(16, { error: "invalid_token" }).max(200, { error: "invalid_token" }),
  password: passwordSchema,
});

/** POST /api/me/verify-email: the 6-digit code mailed to the user's address. */
export const verifyEmailInput = z.object({
  code: z.string({ error: "required" }).trim().regex(/^\d{6}$/, { error: "invalid_code" }),
});
export type VerifyEmailInput = z.input<typeof verifyEmailInput>;

/** PUT /api/me/change-active */
export const changeActiveInput = z.object({ companyId: idSchema });

/** POST /api/me/announcements/seen */
export const announcementSeenInput = z.object({ id: idSchema });

/** PUT /api/user/change-status: with no body the status toggles; with one it is set. */
export const changeStatusInput = z.object({ status: z.enum(["online", "offline"]).optional() });

/** Answer of login, register and reset-password. */
export type TokenAnswer = { token: string };
