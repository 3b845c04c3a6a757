/**
 * The signed-in user and their permissions (spec §7: GET /api/me, GET /api/me/permissions,
 * PUT /api/user/change-status, POST /api/logout).
 */
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { meAnswer, permissionsAnswer } from "@/lib/answers-core";
import type { MeAnswer } from "../../../../../schema/api-types";

/** Query keys of the session feature. */
export const sessionKeys = {
  all: ["session"] as const,
  me: () => [...sessionKeys.all, "me"] as const,
  permissions: () => [...sessionKeys.all, "permissions"] as const,
};

/** GET /api/me → MeAnswer. */
export const meQuery = () =>
  queryOptions({
    queryKey: sessionKeys.me(),
    queryFn: ({ signal }) => api.call("GET", "/me", meAnswer, { signal }),
  });

/** GET /api/me/permissions → permission names of the active company ([] with none). */
export const permissionsQuery = () =>
  queryOptions({
    queryKey: sessionKeys.permissions(),
    queryFn: ({ signal }) => api.call("GET", "/me/permissions", permissionsAnswer, { signal }),
  });

/** PUT /api/user/change-status {status} → MeAnswer (spec §4 "online status"). */
export function changeStatus(status: MeAnswer["status"]): Promise<MeAnswer> {
  return api.call("PUT", "/user/change-status", meAnswer, { body: { status } });
}

/**
 * POST /api/me/verify-email {code} → MeAnswer: proves the user owns their e-mail address (and
 * activates the companies they own). 400 field `code`: invalid_code / expired_code.
 */
export function verifyEmail(code: string): Promise<MeAnswer> {
  return api.call("POST", "/me/verify-email", meAnswer, { body: { code } });
}

/** POST /api/me/verify-email/resend → 204: mails a new code (429 with Retry-After when too soon). */
export function resendVerificationCode(): Promise<void> {
  return api.send("POST", "/me/verify-email/resend");
}

/** POST /api/logout → 204. */
export function logoutCall(): Promise<void> {
  return api.send("POST", "/logout");
}
