import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings/roles: company roles (spec §6; permission settings_company). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function RolesSettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`Roles`} />;
}
