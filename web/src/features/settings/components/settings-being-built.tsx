import { useLingui } from "@lingui/react/macro";
import { Construction } from "lucide-react";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

/** The empty state of a settings tab whose screen comes in a later task. */
export function SettingsBeingBuilt({ title }: { title: string }) {
  const { t } = useLingui();
  return (
    <section aria-label={title}>
      <Card>
        <EmptyState
          icon={<Construction />}
          title={t`This area is being built`}
          description={t`It will be available in an upcoming version of the app.`}
        />
      </Card>
    </section>
  );
}
