/**
 * Team hooks (spec §6 settings_members: view, invite, edit team; §8 success toasts invited,
 * edited, deleted). Changing roles may change the signed-in user's own permissions, so those are
 * refetched too.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import { useHubEvents } from "@/lib/realtime";
import { sessionKeys } from "@/features/session/api/session-api";
import {
  cancelInvite,
  companyInvitesQuery,
  inviteMember,
  membersQuery,
  removeMember,
  teamKeys,
  updateMemberRoles,
} from "../api/team-api";

/** The company's members; their online status follows the hub's `presence` events live (issue 12). */
export function useMembers() {
  const queryClient = useQueryClient();
  useHubEvents((event) => {
    if (event.type === "presence") void queryClient.invalidateQueries({ queryKey: teamKeys.members() });
  });
  return useQuery(membersQuery());
}

/** The company's pending invites. */
export function useCompanyInvites() {
  return useQuery(companyInvitesQuery());
}

/** Invites an e-mail with roles; toasts 'Invitation sent.' and refreshes the invites list. */
export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteMember,
    onSuccess: async () => {
      notifySuccess("invited");
      await queryClient.invalidateQueries({ queryKey: teamKeys.invites() });
    },
  });
}

/** Cancels a pending invite; toasts 'Deleted successfully.'. */
export function useCancelInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelInvite,
    onSuccess: async () => {
      notifySuccess("deleted");
      await queryClient.invalidateQueries({ queryKey: teamKeys.invites() });
    },
  });
}

/** Replaces a member's roles; toasts 'Changes saved.'. */
export function useUpdateMemberRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, roles }: { id: string; roles: string[] }) => updateMemberRoles(id, roles),
    onSuccess: async () => {
      notifySuccess("edited");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.members() }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.permissions() }),
      ]);
    },
  });
}

/** Removes a member from the company; toasts 'Deleted successfully.'. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: async () => {
      notifySuccess("deleted");
      await queryClient.invalidateQueries({ queryKey: teamKeys.members() });
    },
  });
}
