/** Invite hooks (spec §4 "Invitation: accept or reject (the user is then reloaded)"). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/lib/notify";
import { acceptInvite, myInvitesQuery, rejectInvite } from "../api/invites-api";

/** The user's pending invites. */
export function useMyInvites() {
  return useQuery(myInvitesQuery());
}

/**
 * Accepts or rejects an invite; afterwards every query is reloaded (the user, their companies and
 * permissions may have changed) and `onDone` lets the caller re-run route guards.
 */
export function useRespondToInvite(onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept }: { id: string; accept: boolean }) => (accept ? acceptInvite(id) : rejectInvite(id)),
    onSuccess: async (_, { accept }) => {
      notifySuccess(accept ? "inviteAccepted" : "inviteRejected");
      await queryClient.resetQueries();
      onDone();
    },
    onError: (error) => notifyError(error),
  });
}
