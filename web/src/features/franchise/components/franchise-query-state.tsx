/**
 * The loading / error states the franchise screens share: a skeleton while loading, "this area is
 * for franchise administrators" when the API refuses (403, or 404 with franchise mode off), else the
 * error with "Try again".
 */
import type { ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { Building2 } from "lucide-react";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";

/** Whether `error` means "you administer no franchise here" rather than a failure worth retrying. */
export function isNotFranchiseAdmin(error: unknown): boolean {
  return isApiError(error) && (error.status === 403 || error.status === 404);
}

/** Renders `children` once loaded; the skeleton, the refusal or the error otherwise. */
export function FranchiseQueryState({
  pending,
  error,
  onRetry,
  rows = 3,
  children,
}: {
  pending: boolean;
  error: unknown;
  onRetry: () => void;
  rows?: number;
  children: () => ReactNode;
}) {
  const { t } = useLingui();
  if (pending) {
    return (
      <Card className="grid gap-3 p-4" aria-busy>
        {Array.from({ length: rows }, (_, index) => (
          <Skeleton key={index} className="h-10" />
        ))}
      </Card>
    );
  }
  if (error) {
    return (
      <Card>
        {isNotFranchiseAdmin(error) ? (
          <EmptyState icon={<Building2 />} title={t`You do not administer a franchise.`} description={t`This area is for the administrators of a franchise.`} />
        ) : (
          <ErrorState onRetry={onRetry} />
        )}
      </Card>
    );
  }
  return <>{children()}</>;
}
