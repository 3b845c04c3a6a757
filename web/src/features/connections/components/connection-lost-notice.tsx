/**
 * The shell's connection warning (spec §8 Connection, §4 "Connection"): while the active company's
 * `disconnected` list is not empty, 'Connection lost. Go to the Connections page to reconnect.' with
 * a link to /connections ('Not paired yet…' when every entry is a connection never paired). The
 * company hub's `connection.updated` events refresh the company, so the
 * warning appears and disappears live.
 */
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Unplug } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { useHubEvents } from "@/lib/realtime";
import { companyKeys } from "@/features/companies/api/companies-api";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { disconnectedState } from "../lib/disconnected";

/** The warning, shown while `company.disconnected` has entries (renders nothing otherwise). */
export function ConnectionLostNotice({ company, canOpenConnections }: { company: CompanyAnswer; canOpenConnections: boolean }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  useHubEvents(
    (event) => {
      if (event.type === "connection.updated") void queryClient.invalidateQueries({ queryKey: companyKeys.active() });
    },
    () => void queryClient.invalidateQueries({ queryKey: companyKeys.active() }),
  );
  const state = disconnectedState(company.disconnected);
  if (state === null) return null;
  return (
    <Alert variant="warning" data-testid="connection-lost" data-state={state}>
      <Unplug />
      <p className="flex flex-wrap items-center gap-x-2">
        <span>{state === "lost" ? t`Connection lost. Go to the Connections page to reconnect.` : t`Not paired yet. Go to the Connections page to pair it.`}</span>
        {canOpenConnections ? (
          <Link to="/connections" className="font-medium underline underline-offset-4">
            {t`Open Connections`}
          </Link>
        ) : null}
      </p>
    </Alert>
  );
}
