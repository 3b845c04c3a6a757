import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings/data-cleanup (spec §4 "Data cleanup"; permission settings_company). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function DataCleanupSettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`Data cleanup`} />;
}
