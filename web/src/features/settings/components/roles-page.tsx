import { useLingui } from "@lingui/react/macro";
import { RolesPanel } from "@/features/roles/components/roles-panel";

/** /settings/roles: company roles (spec §2, §6; permission settings_company). */
export function RolesSettingsPage() {
  const { t } = useLingui();
  return (
    <section aria-label={t`Roles`} className="max-w-5xl">
      <RolesPanel />
    </section>
  );
}
