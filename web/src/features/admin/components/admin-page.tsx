/**
 * What every screen of the Admin area shares (spec: platform administrators, `PLATFORM_ADMINS`;
 * issues 12–14): the access gate and the list card with its loading, error and empty states.
 */
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Plus, ShieldAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe } from "@/features/session/hooks/use-session";

/**
 * Whether the signed-in user is a platform administrator (`/api/me` `platformAdmin`), and `gate`:
 * what to show instead of the screen (a skeleton while /api/me loads, the "no permission" state for
 * anyone else), or null when the screen may render. The server checks the same on every Admin route.
 */
export function useAdminAccess(): { allowed: boolean; gate: ReactNode } {
  const { t } = useLingui();
  const me = useMe();
  const allowed = me.data?.platformAdmin === true;
  if (me.isPending) return { allowed, gate: <Skeleton className="h-40" /> };
  if (!allowed) {
    return {
      allowed,
      gate: <EmptyState icon={<ShieldAlert />} title={t`You do not have permission to access this page!`} description={t`The Admin area is for platform administrators.`} />,
    };
  }
  return { allowed, gate: null };
}

/** Props of {@link AdminListCard}. */
export type AdminListCardProps<T> = {
  list: UseQueryResult<T[]>;
  /** The list's accessible name. */
  label: string;
  icon: ReactNode;
  emptyTitle: string;
  emptyDescription: string;
  /** The "New …" button's label in the empty state. */
  newLabel: string;
  onNew: () => void;
  renderItem: (item: T) => ReactNode;
};

/** An Admin list in a card: two skeleton rows while loading, a retry on error, an empty state with a "New …" action, else the rows. */
export function AdminListCard<T>({ list, label, icon, emptyTitle, emptyDescription, newLabel, onNew, renderItem }: AdminListCardProps<T>) {
  return (
    <Card>
      {list.isPending ? (
        <div className="grid gap-3 p-4">
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
        </div>
      ) : list.isError ? (
        <ErrorState onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState
          icon={icon}
          title={emptyTitle}
          description={emptyDescription}
          action={
            <Button variant="outline" onClick={onNew}>
              <Plus />
              {newLabel}
            </Button>
          }
        />
      ) : (
        <ul className="divide-y" aria-label={label}>
          {list.data.map(renderItem)}
        </ul>
      )}
    </Card>
  );
}
