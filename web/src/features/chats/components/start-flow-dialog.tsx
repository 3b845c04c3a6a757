/**
 * "Start a flow" from a ticket (issue 5 "From the chat, a member starts a flow"): pick a builder
 * (GET /api/flows, searchable), then POST /api/tickets/{id}/start-flow → 'Builder started.'.
 */
import { useMemo, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Search, Workflow } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/session";
import { flowSummaryList, startFlowAnswer } from "@/lib/answers";
import { notifyError, notifySuccess } from "@/lib/notify";
import { cn } from "@/lib/utils";

/** The picker of the builder to start for the ticket's contact. */
export function StartFlowDialog({ ticketId, open, onOpenChange }: { ticketId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const flows = useQuery({ queryKey: ["chats", "flows"] as const, queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }), enabled: open, staleTime: 30_000, retry: false });
  const list = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (flows.data ?? []).filter((flow) => flow.publishedVersion !== null && (!needle || flow.name.toLowerCase().includes(needle)));
  }, [flows.data, search]);
  const start = useMutation({
    mutationFn: (flowId: string) => api.call("POST", `/tickets/${encodeURIComponent(ticketId)}/start-flow`, startFlowAnswer, { body: { flowId } }),
    onSuccess: () => {
      notifySuccess("builderStarted");
      onOpenChange(false);
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Dialog open={open} onOpenChange={(next) => !start.isPending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t`Start a flow`}</DialogTitle>
          <DialogDescription>{t`The contact goes through the flow's published version now.`}</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t`Search flows`} aria-label={t`Search flows`} className="pl-8" />
        </div>
        <div role="listbox" aria-label={t`Flows`} className="grid max-h-72 gap-1 overflow-y-auto">
          {flows.isPending ? (
            Array.from({ length: 3 }, (_, index) => <Skeleton key={index} className="h-10" />)
          ) : flows.isError ? (
            <p className="py-4 text-center text-sm text-muted-foreground">{t`Could not load the flows.`}</p>
          ) : list.length === 0 ? (
            <p className="py-4 text-center text-sm text-muted-foreground">{t`No published flow.`}</p>
          ) : (
            list.map((flow) => (
              <button
                key={flow.id}
                type="button"
                role="option"
                aria-selected={chosen === flow.id}
                onClick={() => setChosen(flow.id)}
                onDoubleClick={() => start.mutate(flow.id)}
                className={cn("flex items-center gap-2 rounded-md px-2 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring", chosen === flow.id && "bg-accent")}
              >
                <Workflow className="size-4 shrink-0 text-primary" aria-hidden />
                <span className="truncate">{flow.name}</span>
              </button>
            ))
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={start.isPending}>
            {t`Cancel`}
          </Button>
          <Button onClick={() => chosen && start.mutate(chosen)} disabled={!chosen || start.isPending} data-testid="start-flow-confirm">
            {start.isPending ? <Spinner /> : null}
            {t({ message: "Start", context: "verb", comment: "Button: start the chosen flow on this ticket now (an action, not the Start block)." })}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
