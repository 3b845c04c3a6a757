/**
 * Pieces of the franchise area's paged lists (spec §3 `{cursor, total, results}`): the search box
 * and the footer with "n of total" and "Load more".
 */
import { useLingui } from "@lingui/react/macro";
import { Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";

/** A search box over a list; `label` is its accessible name. */
export function ListSearch({ value, onChange, label, placeholder }: { value: string; onChange: (value: string) => void; label: string; placeholder: string }) {
  return (
    <div className="relative max-w-sm">
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" value={value} maxLength={120} onChange={(event) => onChange(event.target.value)} aria-label={label} placeholder={placeholder} className="pl-9" />
    </div>
  );
}

/** "shown of total" (when the total is known) and, when there is a next page, "Load more". */
export function ListFooter({ shown, total, hasMore, loading, onMore }: { shown: number; total: number | null; hasMore: boolean; loading: boolean; onMore: () => void }) {
  const { t } = useLingui();
  return (
    <div className="flex items-center justify-between gap-3 border-t px-4 py-3 text-xs text-muted-foreground">
      <span>{total === null ? null : t`${shown} of ${total}`}</span>
      {hasMore ? (
        <Button variant="outline" size="sm" onClick={onMore} disabled={loading}>
          {loading ? <Spinner /> : null}
          {t`Load more`}
        </Button>
      ) : null}
    </div>
  );
}
