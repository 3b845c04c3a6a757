/**
 * Session hooks: the user, their permissions, the online toggle and logout (spec §2 layout
 * controls, §4 "Session").
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { endSession } from "@/lib/session";
import { notifyError } from "@/lib/notify";
import { changeStatus, logoutCall, meQuery, permissionsQuery, sessionKeys } from "../api/session-api";

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

/** Logs out: POST /api/logout (its failure does not keep the user in), then clears and goes to /login. */
export function useLogout() {
  return useMutation({
    mutationFn: () => logoutCall().catch(() => undefined),
    onSettled: () => endSession(),
  });
}
