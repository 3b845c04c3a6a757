/**
 * Contacts (worker/routes/contacts.ts) and their import and export jobs (worker/routes/jobs.ts):
 * the keyset-paged list with its filter, one contact with every field's value and its tickets,
 * create, edit, delete, bulk tag/untag/delete, the .xlsx upload and mapping, the export, a job's
 * progress, a ticket's messages for the contact's conversation history, and the contact's flow runs
 * (worker/routes/flow-runs.ts) with their stop.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { isApiError } from "@/lib/api";
import { contactAnswer, contactBulkAnswer, contactDetailAnswer, contactPage, flowRunList, importUploadAnswer, jobAnswer, messagePage } from "@/lib/answers";
import type { ContactAnswer, ContactBulkAnswer, ContactPage, ImportUploadAnswer, JobAnswer } from "../../../../../schema/api-types";
import type { ContactFilter } from "../../../../../schema/validation/contacts";
import { listQueryParams } from "../lib/contact-filter";
import type { ColumnMapping } from "../lib/import-mapping";

/** Query keys of the contacts feature; lists carry their filter. */
export const contactKeys = {
  all: ["contacts"] as const,
  lists: () => [...contactKeys.all, "list"] as const,
  list: (filter: ContactFilter) => [...contactKeys.lists(), filter] as const,
  detail: (id: string) => [...contactKeys.all, "detail", id] as const,
  messages: (ticketId: string) => [...contactKeys.all, "messages", ticketId] as const,
  runs: (id: string) => [...contactKeys.all, "runs", id] as const,
  job: (id: string) => ["jobs", id] as const,
};

/** Contacts per page of the list. */
export const CONTACT_PAGE_SIZE = 50;

/** GET /api/contacts with `filter`, newest first, one keyset page after another. */
export const contactListQuery = (filter: ContactFilter) =>
  infiniteQueryOptions({
    queryKey: contactKeys.list(filter),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => api.call("GET", "/contacts", contactPage, { query: listQueryParams(filter, pageParam, CONTACT_PAGE_SIZE), signal }),
    getNextPageParam: (last) => last.cursor,
  });

/** GET /api/contacts/{id} → the contact, every field's value (built-ins and formulas computed) and its tickets. */
export const contactQuery = (id: string) =>
  queryOptions({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => api.call("GET", `/contacts/${encodeURIComponent(id)}`, contactDetailAnswer, { signal }),
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });

/** GET /api/tickets/{id}/messages, newest page first (each next page older). */
export const ticketMessagesQuery = (ticketId: string) =>
  infiniteQueryOptions({
    queryKey: contactKeys.messages(ticketId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", `/tickets/${encodeURIComponent(ticketId)}/messages`, messagePage, { query: { cursor: pageParam ?? undefined }, signal }),
    getNextPageParam: (last) => last.cursor,
  });

/** How often a contact's runs are reloaded while one of them is still going, in ms. */
export const RUNS_REFRESH_MS = 15_000;

/** GET /api/contacts/{id}/runs → the contact's flow runs, newest first (permission `contacts` or `tickets`). */
export const contactRunsQuery = (id: string) =>
  queryOptions({
    queryKey: contactKeys.runs(id),
    queryFn: ({ signal }) => api.call("GET", `/contacts/${encodeURIComponent(id)}/runs`, flowRunList, { signal }),
    refetchInterval: (query) => (query.state.data?.some((run) => run.status === "running" || run.status === "waiting") ? RUNS_REFRESH_MS : false),
  });

/** POST /api/contacts/{id}/runs/{runId}/stop → 204; 404 when the run is no longer in progress. */
export function stopContactRun(contactId: string, runId: string): Promise<void> {
  return api.send("POST", `/contacts/${encodeURIComponent(contactId)}/runs/${encodeURIComponent(runId)}/stop`);
}

/** A contact as the form sends it; `fields` values are raw text ("" or null clears). */
export type ContactWrite = {
  name: string;
  phone: string;
  email: string | null;
  document: string | null;
  tags?: string[];
  fields?: Record<string, string | null>;
};

/** POST /api/contacts → 201 ContactAnswer; 409 `phone_in_use`. */
export function createContact(input: ContactWrite): Promise<ContactAnswer> {
  return api.call("POST", "/contacts", contactAnswer, { body: input });
}

/** PUT /api/contacts/{id} → ContactAnswer; 409 `phone_in_use`. */
export function updateContact(id: string, input: ContactWrite): Promise<ContactAnswer> {
  return api.call("PUT", `/contacts/${encodeURIComponent(id)}`, contactAnswer, { body: input });
}

/** DELETE /api/contacts/{id} → 204. */
export function deleteContact(id: string): Promise<void> {
  return api.send("DELETE", `/contacts/${encodeURIComponent(id)}`);
}

/** Which contacts a bulk action applies to: chosen ids, or every contact matching a filter. */
export type BulkTarget = { ids: string[] } | { filter: ContactFilter };

/** A bulk action. */
export type BulkAction = { action: "delete" } | { action: "tag" | "untag"; tagIds: string[] };

/** POST /api/contacts/bulk once → {affected, done}. */
export function bulkOnce(target: BulkTarget, action: BulkAction): Promise<ContactBulkAnswer> {
  return api.call("POST", "/contacts/bulk", contactBulkAnswer, { body: { ...target, ...action } });
}

/** Contacts per page when the ids of every contact matching a filter are read (the list's maximum). */
const ID_PAGE_SIZE = 100;

/**
 * The ids of a bulk target, one page at a time: the chosen ids as they are, or every contact
 * matching the filter read through GET /api/contacts by keyset (for actions that take ids, such as
 * adding contacts to a shipping cycle).
 */
export async function* contactIdPages(target: BulkTarget): AsyncGenerator<string[]> {
  if ("ids" in target) {
    yield target.ids;
    return;
  }
  let cursor: string | null = null;
  for (let call = 0; call < MAX_BULK_CALLS * 10; call++) {
    const page: ContactPage = await api.call("GET", "/contacts", contactPage, { query: listQueryParams(target.filter, cursor, ID_PAGE_SIZE) });
    yield page.results.map((contact) => contact.id);
    cursor = page.cursor;
    if (!cursor) return;
  }
}

/** Most calls one bulk action makes (a delete by filter removes up to 1,000 contacts per call). */
const MAX_BULK_CALLS = 1000;

/** POST /api/contacts/bulk, repeated while the server says it is not done; answers the contacts affected. */
export async function runBulk(target: BulkTarget, action: BulkAction): Promise<number> {
  let affected = 0;
  for (let call = 0; call < MAX_BULK_CALLS; call++) {
    const answer = await bulkOnce(target, action);
    affected += answer.affected;
    if (answer.done) break;
  }
  return affected;
}

/**
 * POST /api/contacts/import (multipart `file`) → 201 {jobId, headers, preview, suggestedMapping,
 * sheets, sheet, headerRow, previewRows, headerCandidates}.
 */
export function uploadImport(file: File): Promise<ImportUploadAnswer> {
  const form = new FormData();
  form.set("file", file, file.name);
  return api.call("POST", "/contacts/import", importUploadAnswer, { form });
}

/** POST /api/jobs/{id}/preview {sheet?, headerRow?} → the upload read at another sheet or header row. */
export function previewImportChoice(jobId: string, choice: { sheet?: number; headerRow?: number }): Promise<ImportUploadAnswer> {
  return api.call("POST", `/jobs/${encodeURIComponent(jobId)}/preview`, importUploadAnswer, { body: choice });
}

/** POST /api/jobs/{id}/start {mapping} → the job, queued. */
export function startImport(jobId: string, mapping: ColumnMapping): Promise<JobAnswer> {
  return api.call("POST", `/jobs/${encodeURIComponent(jobId)}/start`, jobAnswer, { body: { mapping } });
}

/** POST /api/contacts/export {filter} → 201 the job, queued. */
export function startExport(filter: ContactFilter): Promise<JobAnswer> {
  return api.call("POST", "/contacts/export", jobAnswer, { body: { filter } });
}

/** GET /api/jobs/{id} → progress and, when done, signed download URLs (valid 6 h). */
export const jobQuery = (id: string) =>
  queryOptions({
    queryKey: contactKeys.job(id),
    queryFn: ({ signal }) => api.call("GET", `/jobs/${encodeURIComponent(id)}`, jobAnswer, { signal }),
  });
