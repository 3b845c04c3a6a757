/**
 * The brand the shell and the auth pages show (spec §1; issue 14): the franchise's name and logo in
 * franchise mode (the document's boot values until GET /api/infos answers), else the product's name.
 */
import { useQuery } from "@tanstack/react-query";
import { BOOT_BRANDING, brandFor, franchiseInfoQuery, runtimeSettingsQuery, type Brand } from "./branding";

/** Whether franchise calls may be made: the runtime setting, or (while it loads) a franchise-branded document. */
export function useFranchiseMode(): boolean {
  const settings = useQuery(runtimeSettingsQuery());
  return settings.data ? settings.data.franchiseMode : BOOT_BRANDING !== null;
}

/** The current brand; `name` is null while it is not known yet (render a blank, never the product's name). */
export function useBrand(): Brand {
  const settings = useQuery(runtimeSettingsQuery());
  const franchiseMode = useFranchiseMode();
  const franchise = useQuery({ ...franchiseInfoQuery(), enabled: franchiseMode });
  return brandFor(settings.data, franchiseMode ? franchise.data : undefined);
}
