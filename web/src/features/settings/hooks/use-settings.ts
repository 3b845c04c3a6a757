/**
 * Queries and mutations of the settings tabs "my account", "company" and "integration". Each keeps
 * the cached user / active company / API keys in step with the server's answer.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import { sessionKeys } from "@/features/session/api/session-api";
import { companyKeys } from "@/features/companies/api/companies-api";
import type { ApiKeyAnswer } from "../../../../../schema/validation/api-keys";
import { apiKeyKeys, apiKeysQuery, createApiKey, revokeApiKey, updateCompany, updateProfile } from "../api/settings-api";

/** PUT /api/me; on success the cached user is replaced and 'Changes saved.' is shown. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (me) => {
      queryClient.setQueryData(sessionKeys.me(), me);
      notifySuccess("edited");
    },
  });
}

/**
 * PUT /api/companies/active; on success the cached active company is replaced, the companies list
 * (name and logo in the switcher) refetched and 'Changes saved.' shown.
 */
export function useUpdateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: async (company) => {
      queryClient.setQueryData(companyKeys.active(), company);
      notifySuccess("edited");
      await queryClient.invalidateQueries({ queryKey: companyKeys.list() });
    },
  });
}

/** The company's API keys (GET /api/companies/active/api-keys). */
export function useApiKeys() {
  return useQuery(apiKeysQuery());
}

/** POST /api/companies/active/api-keys; the list is refetched (the answer holds the key once). */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

/** DELETE /api/companies/active/api-keys/{id}; the revoked key replaces its entry in the list. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (revoked) => {
      queryClient.setQueryData<ApiKeyAnswer[]>(apiKeyKeys.list(), (keys) => keys?.map((k) => (k.id === revoked.id ? revoked : k)));
    },
  });
}
