import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings/integration: API key and documentation link (spec §2; permission settings_company). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function IntegrationSettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`Integration`} />;
}
