/**
 * Mutations of the settings tabs "my account", "company" and "integration". Each keeps the cached
 * user / active company in step with the server's answer so the shell (avatar, switcher) follows.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import { sessionKeys } from "@/features/session/api/session-api";
import { companyKeys } from "@/features/companies/api/companies-api";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { generateApiKey, updateCompany, updateProfile } from "../api/settings-api";

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

/** POST /api/companies/active/api-key; the cached company gets the new masked hint. */
export function useGenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateApiKey,
    onSuccess: ({ apiKeyHint }) => {
      queryClient.setQueryData<CompanyAnswer | null>(companyKeys.active(), (company) => (company ? { ...company, apiKeyHint } : company));
    },
  });
}
