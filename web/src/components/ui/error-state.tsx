import type { ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { CircleAlert } from "lucide-react";
import { Button } from "./button";
import { EmptyState } from "./empty-state";

/**
 * The error state of a screen or a list whose data could not be loaded: an icon, a line and a
 * "Try again" button calling `onRetry`.
 */
export function ErrorState({ title, onRetry, className }: { title?: ReactNode; onRetry: () => void; className?: string }) {
  const { t } = useLingui();
  return (
    <div role="alert" className={className}>
      <EmptyState
        icon={<CircleAlert />}
        title={title ?? t`Could not load this data.`}
        description={t`Check your connection and try again.`}
        action={
          <Button variant="outline" size="sm" onClick={onRetry}>
            {t`Try again`}
          </Button>
        }
      />
    </div>
  );
}
