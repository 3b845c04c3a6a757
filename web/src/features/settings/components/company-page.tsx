import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings/company (spec §2; permission settings_company). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function CompanySettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`Company`} />;
}
