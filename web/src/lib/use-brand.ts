/**
 * The brand the shell and the auth pages show (spec §1; issue 14): the franchise's name and logo in
 * franchise mode (the document's boot values until GET /api/infos answers), else the product's name.
 * Read from branding-store.ts (no react-query: the auth pages use these hooks, issue 9).
 */
import { BOOT_BRANDING, brandFor, type Brand } from "./branding";
import { useBrandingState } from "./branding-store";

/** Whether franchise calls may be made: the runtime setting, or (while it loads) a franchise-branded document. */
export function useFranchiseMode(): boolean {
  return useBrandingState(BOOT_BRANDING !== null).franchiseMode;
}

/** The current brand; `name` is null while it is not known yet (render a blank, never the product's name). */
export function useBrand(): Brand {
  const { settings, franchise, franchiseMode } = useBrandingState(BOOT_BRANDING !== null);
  return brandFor(settings, franchiseMode ? franchise : undefined);
}
