/**
 * Role hooks (spec §6; §8 success toasts created, edited, deleted). A role change can change the
 * signed-in user's permissions and the role names shown on the team list, so both are refetched.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import { sessionKeys } from "@/features/session/api/session-api";
import type { RoleInput } from "../../../../../schema/validation/company";
import { createRole, deleteRole, roleKeys, rolesQuery, updateRole } from "../api/roles-api";

/** The company's roles. */
export function useRoles() {
  return useQuery(rolesQuery());
}

async function refreshAfterRoleChange(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: roleKeys.all }),
    queryClient.invalidateQueries({ queryKey: sessionKeys.permissions() }),
    // The team list shows role names (features/members, key ["team", …]).
    queryClient.invalidateQueries({ queryKey: ["team"] }),
  ]);
}

/** Creates (no `id`) or edits a role; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: RoleInput }) => (id ? updateRole(id, input) : createRole(input)),
    onSuccess: async (_, { id }) => {
      notifySuccess(id ? "edited" : "created");
      await refreshAfterRoleChange(queryClient);
    },
  });
}

/** Deletes a role; toasts 'Deleted successfully.'. */
export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: async () => {
      notifySuccess("deleted");
      await refreshAfterRoleChange(queryClient);
    },
  });
}
