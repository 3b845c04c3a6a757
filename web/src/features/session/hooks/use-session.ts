/**
 * Session hooks: the user, their permissions, the online toggle and logout (spec §2 layout
 * controls, §4 "Session").
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { endSession } from "@/lib/session";
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { toast } from "sonner";
import { TOAST_DURATION_MS, notifyError } from "@/lib/notify";
import { changeStatus, logoutCall, meQuery, permissionsQuery, resendVerificationCode, sessionKeys, verifyEmail } from "../api/session-api";

/** The signed-in user (GET /api/me). */
export function useMe() {
  return useQuery(meQuery());
}

/** The active company's permission names as a Set (GET /api/me/permissions). */
export function usePermissions() {
  return useQuery({ ...permissionsQuery(), select: (list) => new Set(list) });
}

/** Sets the user online or offline (PUT /api/user/change-status); the cached user follows. */
export function useChangeStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeStatus,
    onSuccess: (me) => queryClient.setQueryData(sessionKeys.me(), me),
    onError: (error) => notifyError(error),
  });
}

/**
 * Verifies the e-mail with the mailed code; the cached user follows and everything else is
 * reloaded (the invites become visible, the owned companies are activated). Errors are the
 * caller's (the code field shows them).
 */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async (me) => {
      queryClient.setQueryData(sessionKeys.me(), me);
      toast.success(i18n._(msg`Email verified.`), { duration: TOAST_DURATION_MS });
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] });
    },
  });
}

/** Mails a new verification code (toasts success, or the wait when asked too soon). */
export function useResendVerificationCode() {
  return useMutation({
    mutationFn: resendVerificationCode,
    onSuccess: () => toast.success(i18n._(msg`A new code was sent to your email.`), { duration: TOAST_DURATION_MS }),
    onError: (error) => notifyError(error),
  });
}

/** Logs out: POST /api/logout (its failure does not keep the user in), then clears and goes to /login. */
export function useLogout() {
  return useMutation({
    mutationFn: () => logoutCall().catch(() => undefined),
    onSettled: () => endSession(),
  });
}
