/**
 * Calls of the settings tabs "operating hours" and "data cleanup" (issue 12; spec §7
 * `GET/POST /companies/delete-data`): GET/PUT /api/companies/operating-hours and GET/POST
 * /api/companies/delete-data, answers parsed with the shared zod schemas.
 */
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { operatingHoursAnswer, type OperatingHoursAnswer, type OperatingHoursInput } from "../../../../../schema/validation/operating-hours";
import { dataCleanupAnswer, type CleanupType, type DataCleanupAnswer } from "../../../../../schema/validation/data-cleanup";

/** Query keys of both tabs. */
export const workspaceSettingsKeys = {
  operatingHours: () => ["operating-hours"] as const,
  dataCleanup: () => ["data-cleanup"] as const,
};

/** GET /api/companies/operating-hours → the settings (defaults when never saved), time zone and openNow. */
export const operatingHoursQuery = () =>
  queryOptions({
    queryKey: workspaceSettingsKeys.operatingHours(),
    queryFn: ({ signal }) => api.call("GET", "/companies/operating-hours", operatingHoursAnswer, { signal }),
  });

/** PUT /api/companies/operating-hours → the saved settings. 400 names the field (e.g. `weekly.mon.0.close`). */
export function saveOperatingHours(input: OperatingHoursInput): Promise<OperatingHoursAnswer> {
  return api.call("PUT", "/companies/operating-hours", operatingHoursAnswer, { body: input });
}

/** GET /api/companies/delete-data → the deleting state (`status: "none"` when never run). */
export const dataCleanupQuery = () =>
  queryOptions({
    queryKey: workspaceSettingsKeys.dataCleanup(),
    queryFn: ({ signal }) => api.call("GET", "/companies/delete-data", dataCleanupAnswer, { signal }),
  });

/** POST /api/companies/delete-data {type} → the queued cleanup. 409 while another runs. */
export function startDataCleanup(type: CleanupType): Promise<DataCleanupAnswer> {
  return api.call("POST", "/companies/delete-data", dataCleanupAnswer, { body: { type } });
}
