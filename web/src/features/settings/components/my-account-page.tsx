import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings, tab "my account" (spec §2; login only). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function MyAccountSettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`My account`} />;
}
