/** Company hooks: active company, list, switching, activation by code (spec §2, §4). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/lib/notify";
import { activateCompany, activeCompanyQuery, changeActiveCompany, companiesQuery, companyKeys } from "../api/companies-api";

/** The active company (null when the user has none). */
export function useActiveCompany() {
  return useQuery(activeCompanyQuery());
}

/** The user's companies, for the switcher. */
export function useCompanies() {
  return useQuery(companiesQuery());
}

/**
 * Switches the active company; everything cached belonged to the previous company, so all queries
 * are reset and the current route's guards run again through `onSwitched`.
 */
export function useChangeActiveCompany(onSwitched: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeActiveCompany,
    onSuccess: async () => {
      await queryClient.resetQueries();
      onSwitched();
    },
    onError: (error) => notifyError(error),
  });
}

/** Activates the company with a 6-digit code; success toasts 'Account activated' (spec §8). */
export function useActivateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateCompany,
    onSuccess: (company) => {
      queryClient.setQueryData(companyKeys.active(), company);
      notifySuccess("accountActivated");
    },
  });
}
