/**
 * Inbound webhooks (worker/routes/webhooks.ts; spec §2 Webhooks, §3 Webhook; permission
 * `webhooks`): list, create, edit, delete, the requests each received, and the options the actions
 * editor offers (tags, custom fields, CRM columns, flows, connections, shipping cycles).
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { crmColumnPage, customFieldList, flowSummaryList, tagPage } from "@/lib/answers";
import {
  WEBHOOK_MODES,
  WEBHOOK_REQUEST_STATES,
  webhookActionSchema,
  webhookMappingSchema,
  type WebhookAnswer,
  type WebhookInput,
  type WebhookRequestPage,
} from "../../../../../schema/validation/webhooks";

/** Query keys of webhooks. */
export const webhookKeys = {
  all: ["webhooks"] as const,
  list: () => [...webhookKeys.all, "list"] as const,
  one: (id: string) => [...webhookKeys.all, "one", id] as const,
  requests: (id: string) => [...webhookKeys.all, "requests", id] as const,
  options: (what: string) => [...webhookKeys.all, "options", what] as const,
};

const webhookAnswer: z.ZodType<WebhookAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  mode: z.enum(WEBHOOK_MODES),
  url: z.string(),
  mapping: webhookMappingSchema,
  actions: z.array(webhookActionSchema),
  spamLimit: z.number(),
  spamAt: z.number().nullable(),
  lastRequestAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const outcome = z.object({ index: z.number(), type: z.enum(["start_flow", "add_tag", "remove_tag", "set_field", "add_to_cycle", "move_crm"]), status: z.enum(["done", "skipped", "failed"]), detail: z.string().nullable() });

const requestPage: z.ZodType<WebhookRequestPage> = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      state: z.enum(WEBHOOK_REQUEST_STATES),
      receivedAt: z.number(),
      processedAt: z.number().nullable(),
      contentType: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.unknown(),
      error: z.string().nullable(),
      result: z
        .object({
          contact: z.object({ id: z.string(), name: z.string(), phone: z.string(), created: z.boolean(), nameUpdated: z.boolean(), emailUpdated: z.boolean() }).nullable(),
          actions: z.array(outcome),
          notes: z.array(z.string()),
        })
        .nullable(),
    }),
  ),
  cursor: z.string().nullable(),
});

/** GET /api/webhooks → every webhook of the company, by name. */
export const webhooksQuery = () => queryOptions({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => api.call("GET", "/webhooks", z.array(webhookAnswer), { signal }) });

/** GET /api/webhooks/{id}. */
export const webhookQuery = (id: string) => queryOptions({ queryKey: webhookKeys.one(id), queryFn: ({ signal }) => api.call("GET", `/webhooks/${encodeURIComponent(id)}`, webhookAnswer, { signal }) });

/** GET /api/webhooks/{id}/requests → the newest page (the screen refreshes it every few seconds). */
export const webhookRequestsQuery = (id: string, cursor: string | null = null) =>
  queryOptions({
    queryKey: [...webhookKeys.requests(id), cursor ?? ""],
    queryFn: ({ signal }) => api.call("GET", `/webhooks/${encodeURIComponent(id)}/requests`, requestPage, { query: { cursor, limit: 20 }, signal }),
  });

/** POST /api/webhooks → 201 the webhook with its URL. */
export function createWebhook(input: Partial<WebhookInput> & { name: string }): Promise<WebhookAnswer> {
  return api.call("POST", "/webhooks", webhookAnswer, { body: input });
}

/** PUT /api/webhooks/{id} → the webhook. */
export function updateWebhook(id: string, input: WebhookInput): Promise<WebhookAnswer> {
  return api.call("PUT", `/webhooks/${encodeURIComponent(id)}`, webhookAnswer, { body: input });
}

/** DELETE /api/webhooks/{id} → 204. */
export function deleteWebhook(id: string): Promise<void> {
  return api.send("DELETE", `/webhooks/${encodeURIComponent(id)}`);
}

/** An option of an action's select. */
export type Option = { id: string; name: string };

const connectionOption = z.object({ id: z.string(), name: z.string() });

/** The options of the actions editor; each list is empty when the member may not read it. */
export const optionQueries = {
  tags: () =>
    queryOptions({
      queryKey: webhookKeys.options("tags"),
      queryFn: async ({ signal }): Promise<Option[]> => (await api.call("GET", "/tags", tagPage, { query: { limit: 200 }, signal })).results,
      staleTime: 30_000,
      retry: false,
    }),
  fields: () =>
    queryOptions({
      queryKey: webhookKeys.options("fields"),
      queryFn: async ({ signal }): Promise<Option[]> =>
        (await api.call("GET", "/custom-fields", customFieldList, { signal })).results.filter((f) => f.kind === "user" && !f.formula).map((f) => ({ id: f.id, name: f.name })),
      staleTime: 30_000,
      retry: false,
    }),
  columns: () =>
    queryOptions({
      queryKey: webhookKeys.options("columns"),
      queryFn: async ({ signal }): Promise<Option[]> => (await api.call("GET", "/crm/columns", crmColumnPage, { signal })).results,
      staleTime: 30_000,
      retry: false,
    }),
  flows: () =>
    queryOptions({
      queryKey: webhookKeys.options("flows"),
      queryFn: async ({ signal }): Promise<Option[]> => (await api.call("GET", "/flows", flowSummaryList, { signal })).map((f) => ({ id: f.id, name: f.name })),
      staleTime: 30_000,
      retry: false,
    }),
  cycles: () =>
    queryOptions({
      queryKey: webhookKeys.options("cycles"),
      queryFn: ({ signal }): Promise<Option[]> => api.call("GET", "/shipping-cycles", z.array(connectionOption), { signal }),
      staleTime: 30_000,
      retry: false,
    }),
  connections: () =>
    queryOptions({
      queryKey: webhookKeys.options("connections"),
      queryFn: ({ signal }): Promise<Option[]> => api.call("GET", "/connections", z.array(connectionOption), { signal }),
      staleTime: 30_000,
      retry: false,
    }),
};
