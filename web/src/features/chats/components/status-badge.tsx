/** The ticket status label of spec §4 (pending, open, closed). */
import { useLingui } from "@lingui/react/macro";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { TicketStatus } from "../../../../../schema/tickets";

/** A small coloured badge naming the ticket's status. */
export function StatusBadge({ status, className }: { status: TicketStatus; className?: string }) {
  const { t } = useLingui();
  const label = status === "pending" ? t`Pending` : status === "open" ? t({ message: "Open", context: "ticket status" }) : t`Closed`;
  return (
    <Badge
      variant="outline"
      className={cn(
        "shrink-0 border-transparent px-1.5 py-0 text-[10px] uppercase",
        status === "pending" && "bg-amber-500/15 text-amber-800 dark:text-amber-200",
        status === "open" && "bg-emerald-500/15 text-emerald-800 dark:text-emerald-200",
        status === "closed" && "bg-muted text-muted-foreground",
        className,
      )}
    >
      {label}
    </Badge>
  );
}
