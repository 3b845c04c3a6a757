import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings/operating-hours (spec §2; permission settings_company). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function OperatingHoursSettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`Operating hours`} />;
}
