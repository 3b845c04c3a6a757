/**
 * Account calls made before sign-in (spec §7): POST /api/login, /api/register,
 * /api/forgot-password, /api/reset-password. Bodies are the outputs of schema/validation/auth.ts.
 * Answers are read with the zod-free parsers of answers-boot.ts (the login page loads no zod).
 */
import type { z } from "zod";
import { api } from "@/lib/session";
import { okAnswer, tokenAnswer } from "@/lib/answers-boot";
import type { forgotPasswordInput, loginInput, resetPasswordInput, TokenAnswer } from "../../../../../schema/validation/auth";
import type { registerInput } from "../../../../../schema/validation/register";

/** POST /api/login → {token}. */
export function login(body: z.output<typeof loginInput>): Promise<TokenAnswer> {
  return api.call("POST", "/login", tokenAnswer, { body });
}

/** POST /api/register → 201 {token}. */
export function register(body: z.output<typeof registerInput>): Promise<TokenAnswer> {
  return api.call("POST", "/register", tokenAnswer, { body });
}

/** POST /api/forgot-password → {ok: true}. */
export async function forgotPassword(body: z.output<typeof forgotPasswordInput>): Promise<void> {
  await api.call("POST", "/forgot-password", okAnswer, { body });
}

/** POST /api/reset-password → {token}. */
export function resetPassword(body: z.output<typeof resetPasswordInput>): Promise<TokenAnswer> {
  return api.call("POST", "/reset-password", tokenAnswer, { body });
}
