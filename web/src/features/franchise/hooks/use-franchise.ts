/**
 * Hooks of the franchise area (issue 14): its settings (shared by the settings, e-mail and
 * integrations tabs) and their saves, with the spec §8 toasts. Saving the settings refreshes the
 * branding (GET /api/infos) so the app shows the new name, logo and colour at once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import { brandingKeys } from "@/lib/branding";
import type { FranchiseIntegrationsInput, FranchiseSettingsAnswer } from "../../../../../schema/validation/franchise";
import { franchiseKeys, franchiseSettingsQuery, updateFranchise, updateIntegrations } from "../api/franchise-api";

/** The settings of the franchise the user administers. */
export function useFranchiseSettings() {
  return useQuery(franchiseSettingsQuery());
}

/** PUT /api/franchise with a prepared multipart body; toasts 'Changes saved.' (errors go to the form). */
export function useUpdateFranchise() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => updateFranchise(form),
    onSuccess: async (saved: FranchiseSettingsAnswer) => {
      notifySuccess("edited");
      queryClient.setQueryData(franchiseKeys.settings(), saved);
      await queryClient.invalidateQueries({ queryKey: brandingKeys.franchise() });
    },
  });
}

/** PUT /api/franchise/integrations; toasts 'Changes saved.'. */
export function useUpdateIntegrations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FranchiseIntegrationsInput) => updateIntegrations(input),
    onSuccess: async () => {
      notifySuccess("edited");
      await queryClient.invalidateQueries({ queryKey: franchiseKeys.settings() });
    },
  });
}
