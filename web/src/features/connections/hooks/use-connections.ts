/**
 * Connection hooks: the list, its mutations (each success refreshes the list and the active
 * company, whose `disconnected` list drives the shell's warning) and the live sync with the company
 * hub's `connection.updated` events.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useHubEvents } from "@/lib/realtime";
import type { HubEvent } from "../../../../../schema/realtime";
import { companyKeys } from "@/features/companies/api/companies-api";
import {
  connectionKeys,
  connectionsQuery,
  createConnection,
  deleteConnection,
  disconnectConnection,
  refreshConnection,
  updateConnection,
  type ConnectionUpdate,
} from "../api/connections-api";
import type { ConnectionCreateInput } from "../../../../../schema/validation/connections";
import { applyConnectionUpdate } from "../lib/pairing";

/** The company's connections. */
export function useConnections() {
  return useQuery(connectionsQuery());
}

function useRefresh() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
      queryClient.invalidateQueries({ queryKey: companyKeys.active() }),
    ]);
  };
}

/** Creates a connection; toasts 'Created successfully.' (errors are left to the form). */
export function useCreateConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: ConnectionCreateInput) => createConnection(input),
    onSuccess: async () => {
      notifySuccess("created");
      await refresh();
    },
  });
}

/** Edits a connection; toasts 'Changes saved.' (errors are left to the form). */
export function useUpdateConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ConnectionUpdate }) => updateConnection(id, input),
    onSuccess: async () => {
      notifySuccess("edited");
      await refresh();
    },
  });
}

/** Deletes a connection; toasts 'Deleted successfully.' or the error. */
export function useDeleteConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => deleteConnection(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
}

/**
 * Asks Meta again for a Cloud API number's display number, verified name and quality rating;
 * toasts 'Changes saved.' or the error (e.g. Meta no longer accepts the stored token).
 */
export function useRefreshConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => refreshConnection(id),
    onSuccess: async () => {
      notifySuccess("edited");
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
}

/** Disconnects a connection (sandbox: unpairs the phone); toasts 'Changes saved.' or the error. */
export function useDisconnectConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => disconnectConnection(id),
    onSuccess: async () => {
      notifySuccess("edited");
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
}

/**
 * Keeps the connection list and the active company in step with the hub: a `connection.updated`
 * event patches the cached row in place (or refetches the list for an unknown one) and refreshes
 * the company's disconnected list; a hub reset refetches both. `onUpdate` sees every such event.
 */
export function useConnectionsLiveSync(onUpdate?: (connection: Extract<HubEvent, { type: "connection.updated" }>["connection"]) => void) {
  const queryClient = useQueryClient();
  useHubEvents(
    (event) => {
      if (event.type !== "connection.updated") return;
      const list = queryClient.getQueryData(connectionsQuery().queryKey);
      const next = list ? applyConnectionUpdate(list, event.connection) : null;
      if (next) queryClient.setQueryData(connectionKeys.list(), next);
      else void queryClient.invalidateQueries({ queryKey: connectionKeys.all });
      void queryClient.invalidateQueries({ queryKey: companyKeys.active() });
      onUpdate?.(event.connection);
    },
    () => {
      void queryClient.invalidateQueries({ queryKey: connectionKeys.all });
      void queryClient.invalidateQueries({ queryKey: companyKeys.active() });
    },
  );
}
