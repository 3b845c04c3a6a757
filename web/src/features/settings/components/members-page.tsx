import { useLingui } from "@lingui/react/macro";
import { TeamPanel } from "@/features/members/components/team-panel";

/** /settings/members: team and invites (spec §2, §6; permission settings_members). */
export function MembersSettingsPage() {
  const { t } = useLingui();
  return (
    <section aria-label={t`Members`} className="max-w-5xl">
      <TeamPanel />
    </section>
  );
}
