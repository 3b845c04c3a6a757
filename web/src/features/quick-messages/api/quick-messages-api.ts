/**
 * Quick messages (worker/routes/quick-messages.ts; spec §2, §3 Quick message): list with search,
 * create and edit (JSON, or multipart when a file goes with it), delete, and render for a contact.
 * Managing needs `quick_messages`; listing, reading and rendering also work with `tickets` (the
 * chat composer). The variables helper reads the field keys from GET /api/custom-fields.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { quickMessageAnswer, quickMessagePage, renderedQuickMessage, templateFieldPage } from "@/lib/answers";
import type { QuickMessageAnswer, RenderedQuickMessage } from "../../../../../schema/api-types";

/** Quick messages per page on the management screen. */
const PAGE_SIZE = 30;
/** Quick messages the composer loads at once to filter as the member types. */
export const COMPOSER_LIST_SIZE = 200;

/** Query keys of the quick messages feature. */
export const quickMessageKeys = {
  all: ["quick-messages"] as const,
  list: (search: string) => [...quickMessageKeys.all, "list", search] as const,
  composer: (search: string) => [...quickMessageKeys.all, "composer", search] as const,
  fields: () => [...quickMessageKeys.all, "template-fields"] as const,
};

/** The first page's cursor: none (a function so the page parameter is typed `string | null`). */
const firstPage = (): string | null => null;

/** GET /api/quick-messages?search=&cursor= as pages, by name. */
export const quickMessagesQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: quickMessageKeys.list(search),
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", "/quick-messages", quickMessagePage, { query: { search: search || undefined, cursor: pageParam ?? undefined, limit: PAGE_SIZE }, signal }),
    initialPageParam: firstPage(),
    getNextPageParam: (page) => page.cursor,
  });

/** GET /api/quick-messages?search=&limit=200: what the composer's `/` list filters. */
export const composerQuickMessagesQuery = (search: string) =>
  queryOptions({
    queryKey: quickMessageKeys.composer(search),
    queryFn: ({ signal }) => api.call("GET", "/quick-messages", quickMessagePage, { query: { search: search || undefined, limit: COMPOSER_LIST_SIZE }, signal }),
    staleTime: 30_000,
  });

/** GET /api/custom-fields → the keys usable as `{{key}}` (built-ins first). */
export const templateFieldsQuery = () =>
  queryOptions({
    queryKey: quickMessageKeys.fields(),
    queryFn: ({ signal }) => api.call("GET", "/custom-fields", templateFieldPage, { signal }),
    staleTime: 60_000,
    retry: false,
  });

/** What a save sends: name, text, and the attachment change (a new file, or removing the current one). */
export type QuickMessageSave = { name: string; text: string; file: File | null; removeMedia: boolean };

function bodyOf(input: QuickMessageSave): { form: FormData } | { body: { name: string; text: string; removeMedia?: boolean } } {
  if (!input.file) return { body: { name: input.name, text: input.text, ...(input.removeMedia ? { removeMedia: true } : {}) } };
  const form = new FormData();
  form.set("name", input.name);
  form.set("text", input.text);
  form.set("file", input.file, input.file.name);
  return { form };
}

/** POST /api/quick-messages → 201 the quick message (400 `text: required` with neither text nor file). */
export function createQuickMessage(input: QuickMessageSave): Promise<QuickMessageAnswer> {
  return api.call("POST", "/quick-messages", quickMessageAnswer, bodyOf(input));
}

/** PUT /api/quick-messages/{id} → the quick message; a new file replaces the attachment. */
export function updateQuickMessage(id: string, input: QuickMessageSave): Promise<QuickMessageAnswer> {
  return api.call("PUT", `/quick-messages/${encodeURIComponent(id)}`, quickMessageAnswer, bodyOf(input));
}

/** DELETE /api/quick-messages/{id} → 204. */
export function deleteQuickMessage(id: string): Promise<void> {
  return api.send("DELETE", `/quick-messages/${encodeURIComponent(id)}`);
}

/** POST /api/quick-messages/{id}/render {contactId} → the text with the contact's values, and the media. */
export function renderQuickMessage(id: string, contactId: string): Promise<RenderedQuickMessage> {
  return api.call("POST", `/quick-messages/${encodeURIComponent(id)}/render`, renderedQuickMessage, { body: { contactId } });
}
