import { useLingui } from "@lingui/react/macro";
import { SettingsBeingBuilt } from "./settings-being-built";

/** /settings/members: team and invites (spec §6; permission settings_members). Its screen is built in a later task; until then the tab shows the "being built" state. */
export function MembersSettingsPage() {
  const { t } = useLingui();
  return <SettingsBeingBuilt title={t`Members`} />;
}
