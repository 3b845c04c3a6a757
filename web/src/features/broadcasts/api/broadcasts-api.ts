/**
 * Broadcasts (worker/routes/broadcasts.ts; spec §2 Broadcasts, §3 Broadcast, §4 Broadcast status;
 * permission `broadcasts`): the current and history lists (keyset pages), one broadcast, create,
 * edit, delete, start, pause, resume, its recipients by status with the reason each was rejected,
 * the live audience count of the form, and what the form picks from: connections, published flows,
 * CRM columns and a connection's WhatsApp message templates (worker/routes/templates.ts). Answers
 * are parsed at the edge against the shared types of schema/validation/broadcasts.ts and
 * schema/validation/templates.ts.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { isApiError } from "@/lib/api";
import { crmColumnPage, flowSummaryList } from "@/lib/answers";
import type { Page } from "../../../../../schema/api-types";
import {
  BROADCAST_DELAYS,
  BROADCAST_STATUSES,
  CONDITIONS,
  FILTER_ITEMS,
  REJECT_REASONS,
  TEMPLATE_COMPONENTS,
  type AudienceAnswer,
  type BroadcastCounts,
  type BroadcastDetail,
  type BroadcastFilter,
  type BroadcastInput,
  type BroadcastListItem,
  type BroadcastProgress,
  type BroadcastRecipientRow,
  type BroadcastTemplate,
  type BroadcastUpdate,
} from "../../../../../schema/validation/broadcasts";
import type { TemplateAnswer, TemplatesAnswer } from "../../../../../schema/validation/templates";

/** Which list: the current tab (waiting, started, paused) or history (done, cancelled). */
export type BroadcastTab = "current" | "history";

/** A recipients tab of the drawer. */
export type RecipientTab = "pending" | "sent" | "rejected";

const counts: z.ZodType<BroadcastCounts> = z.object({ total: z.number().nullable(), sent: z.number(), rejected: z.number(), pending: z.number() });

const listItemShape = {
  id: z.string(),
  name: z.string(),
  status: z.enum(BROADCAST_STATUSES),
  delay: z.enum(BROADCAST_DELAYS),
  connection: z.object({ id: z.string(), name: z.string(), channel: z.string() }),
  flow: z.object({ id: z.string(), name: z.string() }),
  scheduledDate: z.number().nullable(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  counts,
  createdAt: z.number(),
  updatedAt: z.number(),
};

/** One row of the list. */
export const broadcastListItem: z.ZodType<BroadcastListItem> = z.object(listItemShape);

const filterAnswer: z.ZodType<BroadcastFilter> = z.object({
  item: z.enum(FILTER_ITEMS),
  condition: z.enum(CONDITIONS),
  tag: z.string().optional(),
  fieldId: z.string().optional(),
  value: z.string().optional(),
});

const variableSource = z.union([
  z.object({ type: z.literal("contact"), field: z.enum(["full_name", "first_name", "last_name", "phone", "email", "document"]) }),
  z.object({ type: z.literal("custom_field"), fieldId: z.string() }),
  z.object({ type: z.literal("text"), text: z.string() }),
]);

const templateAnswer: z.ZodType<BroadcastTemplate> = z.object({
  name: z.string(),
  language: z.string(),
  variables: z.array(z.object({ component: z.enum(TEMPLATE_COMPONENTS), index: z.number(), buttonIndex: z.number().optional(), source: variableSource })),
});

/** GET /api/broadcasts/{id} (and the answer of every write). */
export const broadcastDetail: z.ZodType<BroadcastDetail> = z.object({ ...listItemShape, filters: z.array(filterAnswer), template: templateAnswer.nullable() });

const broadcastPage: z.ZodType<Page<BroadcastListItem>> = z.object({ results: z.array(broadcastListItem), cursor: z.string().nullable(), total: z.number() });

const recipientRow: z.ZodType<BroadcastRecipientRow> = z.object({
  contactId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  status: z.enum(["pending", "sent", "rejected"]),
  reason: z.enum(REJECT_REASONS).nullable().catch(null),
  detail: z.string().nullable(),
  doneAt: z.number().nullable(),
});

const recipientPage = z.object({ results: z.array(recipientRow), cursor: z.string().nullable(), total: z.number().optional() });

const audienceAnswer: z.ZodType<AudienceAnswer> = z.object({ count: z.number() });

/** The hub's `broadcast.updated` payload (checked before it touches a cached list). */
export const broadcastProgress: z.ZodType<BroadcastProgress> = z.object({ id: z.string(), status: z.enum(BROADCAST_STATUSES), counts });

const templateRow: z.ZodType<TemplateAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.string(),
  status: z.string(),
  parameterFormat: z.enum(["POSITIONAL", "NAMED"]),
  components: z.array(
    z.object({
      type: z.string(),
      format: z.string().optional(),
      text: z.string().optional(),
      buttons: z.array(z.object({ type: z.string(), text: z.string().optional(), url: z.string().optional(), phone_number: z.string().optional() })).optional(),
    }),
  ),
  headerParams: z.array(z.string()),
  bodyParams: z.array(z.string()),
});

const templatesAnswer: z.ZodType<TemplatesAnswer> = z.object({ templates: z.array(templateRow), syncedAt: z.number().nullable() });

/** A connection the form offers. */
export const connectionOption = z.object({ id: z.string(), name: z.string(), channel: z.string(), status: z.string() });
/** A connection as the form lists it (GET /api/connections, the fields the form reads). */
export type ConnectionOption = z.infer<typeof connectionOption>;

/** Query keys of the broadcasts feature. */
export const broadcastKeys = {
  all: ["broadcasts"] as const,
  lists: () => [...broadcastKeys.all, "list"] as const,
  list: (tab: BroadcastTab) => [...broadcastKeys.lists(), tab] as const,
  detail: (id: string) => [...broadcastKeys.all, "detail", id] as const,
  recipients: (id: string, status: RecipientTab) => [...broadcastKeys.all, "recipients", id, status] as const,
  audience: (connectionId: string, filters: readonly BroadcastFilter[]) => [...broadcastKeys.all, "audience", connectionId, filters] as const,
  connections: () => [...broadcastKeys.all, "connections"] as const,
  flows: () => [...broadcastKeys.all, "flows"] as const,
  columns: () => [...broadcastKeys.all, "crm-columns"] as const,
  templates: (connectionId: string) => [...broadcastKeys.all, "templates", connectionId] as const,
};

/** Rows per page of the lists. */
export const BROADCAST_PAGE_SIZE = 30;
/** Rows per page of the recipients drawer. */
export const RECIPIENT_PAGE_SIZE = 50;

/** GET /api/broadcasts?tab=&cursor= → newest first, one keyset page after another. */
export const broadcastListQuery = (tab: BroadcastTab) =>
  infiniteQueryOptions({
    queryKey: broadcastKeys.list(tab),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => api.call("GET", "/broadcasts", broadcastPage, { query: { tab, cursor: pageParam ?? undefined, limit: BROADCAST_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => last.cursor,
  });

/** GET /api/broadcasts/{id} → the broadcast with its filters and template; 404 for another company's. */
export const broadcastQuery = (id: string) =>
  queryOptions({
    queryKey: broadcastKeys.detail(id),
    queryFn: ({ signal }) => api.call("GET", `/broadcasts/${encodeURIComponent(id)}`, broadcastDetail, { signal }),
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });

/** GET /api/broadcasts/{id}/recipients?status=&cursor= → the recipients in that state, with each rejection's reason. */
export const recipientsQuery = (id: string, status: RecipientTab) =>
  infiniteQueryOptions({
    queryKey: broadcastKeys.recipients(id, status),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", `/broadcasts/${encodeURIComponent(id)}/recipients`, recipientPage, { query: { status, cursor: pageParam ?? undefined, limit: RECIPIENT_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => last.cursor,
  });

/** POST /api/broadcasts/audience {connectionId, filters} → {count}: how many contacts match now. */
export const audienceQuery = (connectionId: string, filters: readonly BroadcastFilter[]) =>
  queryOptions({
    queryKey: broadcastKeys.audience(connectionId, filters),
    queryFn: ({ signal }) => api.call("POST", "/broadcasts/audience", audienceAnswer, { body: { connectionId, filters }, signal }),
    staleTime: 10_000,
    retry: false,
  });

/** GET /api/connections → the connections a broadcast may go through (permission `connections`). */
export const connectionOptionsQuery = () =>
  queryOptions({
    queryKey: broadcastKeys.connections(),
    queryFn: ({ signal }) => api.call("GET", "/connections", z.array(connectionOption), { signal }),
    staleTime: 30_000,
    retry: false,
  });

/** GET /api/flows → the company's flows; the form offers the published ones (permission `flow`). */
export const flowOptionsQuery = () =>
  queryOptions({
    queryKey: broadcastKeys.flows(),
    queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }),
    staleTime: 30_000,
    retry: false,
  });

/** GET /api/crm/columns → the CRM columns a filter may name (permission `crm`). */
export const crmColumnOptionsQuery = () =>
  queryOptions({
    queryKey: broadcastKeys.columns(),
    queryFn: async ({ signal }) => (await api.call("GET", "/crm/columns", crmColumnPage, { signal })).results,
    staleTime: 30_000,
    retry: false,
  });

/** GET /api/connections/{id}/templates → the connection's WhatsApp message templates (empty for sandbox). */
export const templatesQuery = (connectionId: string) =>
  queryOptions({
    queryKey: broadcastKeys.templates(connectionId),
    queryFn: ({ signal }) => api.call("GET", `/connections/${encodeURIComponent(connectionId)}/templates`, templatesAnswer, { signal }),
    staleTime: 60_000,
    retry: false,
  });

/** POST /api/connections/{id}/templates/sync → the templates read again from Meta. */
export function syncTemplates(connectionId: string): Promise<TemplatesAnswer> {
  return api.call("POST", `/connections/${encodeURIComponent(connectionId)}/templates/sync`, templatesAnswer);
}

/** POST /api/broadcasts → 201 the broadcast (status `waiting`). */
export function createBroadcast(input: BroadcastWriteBody): Promise<BroadcastDetail> {
  return api.call("POST", "/broadcasts", broadcastDetail, { body: input });
}

/** PUT /api/broadcasts/{id} → the broadcast. */
export function updateBroadcast(id: string, input: BroadcastUpdateBody): Promise<BroadcastDetail> {
  return api.call("PUT", `/broadcasts/${encodeURIComponent(id)}`, broadcastDetail, { body: input });
}

/** DELETE /api/broadcasts/{id} → 204 (a broadcast not done is cancelled into history). */
export function deleteBroadcast(id: string): Promise<void> {
  return api.send("DELETE", `/broadcasts/${encodeURIComponent(id)}`);
}

/** A status change of the list's actions. */
export type BroadcastAction = "start" | "pause" | "resume";

/** POST /api/broadcasts/{id}/start|pause|resume → the broadcast; 409 `invalid_state` when it cannot. */
export function actOnBroadcast(id: string, action: BroadcastAction): Promise<BroadcastDetail> {
  return api.call("POST", `/broadcasts/${encodeURIComponent(id)}/${action}`, broadcastDetail);
}

/** The body of POST /api/broadcasts as JSON (scheduledDate as ISO text, not yet ms). */
export type BroadcastWriteBody = Omit<BroadcastInput, "scheduledDate"> & { scheduledDate?: string | null };
/** The body of PUT /api/broadcasts/{id} as JSON. */
export type BroadcastUpdateBody = Omit<BroadcastUpdate, "scheduledDate"> & { scheduledDate?: string | null };
