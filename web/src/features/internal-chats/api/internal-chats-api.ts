/**
 * Internal chat calls (worker/routes/internal-chats.ts; issue 12): the caller's conversations, one
 * conversation, its messages (newest page first), sending text or a file, the read mark, typing,
 * creating a direct conversation or a group, editing a group, and the members one can chat with.
 * Answers are parsed with the shared schemas of schema/validation/internal-chats.ts.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import {
  internalChatAnswer,
  internalChatMemberAnswer,
  internalChatPage,
  internalMessageAnswer,
  internalMessagePage,
  internalReadAnswer,
  type InternalChatAnswer,
  type InternalChatCreateInput,
  type InternalMessageAnswer,
  type InternalReadAnswer,
} from "../../../../../schema/validation/internal-chats";

/** Query keys of the internal chat. */
export const internalChatKeys = {
  all: ["internal-chats"] as const,
  lists: () => [...internalChatKeys.all, "list"] as const,
  list: (search: string) => [...internalChatKeys.lists(), search] as const,
  detail: (id: string) => [...internalChatKeys.all, "detail", id] as const,
  messages: (id: string) => [...internalChatKeys.all, "messages", id] as const,
  members: () => [...internalChatKeys.all, "members"] as const,
};

/** Conversations per page of the list; messages per page of a conversation. */
export const CHAT_PAGE_SIZE = 50;
export const MESSAGE_PAGE_SIZE = 50;

/** GET /api/internal-chats?search= as pages, latest activity first. */
export const internalChatListQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: internalChatKeys.list(search),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", "/internal-chats", internalChatPage, { query: { search: search || undefined, cursor: pageParam ?? undefined, limit: CHAT_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => last.cursor,
  });

/** GET /api/internal-chats/{id} (404 when the caller is not a member). */
export const internalChatQuery = (id: string) =>
  queryOptions({
    queryKey: internalChatKeys.detail(id),
    queryFn: ({ signal }) => api.call("GET", `/internal-chats/${encodeURIComponent(id)}`, internalChatAnswer, { signal }),
    retry: (count, error) => count < 2 && !(error instanceof Error && "status" in error && error.status === 404),
  });

/** GET /api/internal-chats/{id}/messages, the newest page first. */
export const internalMessagesQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: internalChatKeys.messages(id),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", `/internal-chats/${encodeURIComponent(id)}/messages`, internalMessagePage, { query: { cursor: pageParam ?? undefined, limit: MESSAGE_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => last.cursor,
  });

const memberList = z.object({ results: z.array(internalChatMemberAnswer) });

/** GET /api/internal-chats/members: the company's members, by name. */
export const internalChatMembersQuery = () =>
  queryOptions({
    queryKey: internalChatKeys.members(),
    queryFn: ({ signal }) => api.call("GET", "/internal-chats/members", memberList, { signal }).then((answer) => answer.results),
    staleTime: 60_000,
  });

/** POST /api/internal-chats → the new conversation (or the pair's existing direct one). */
export function createInternalChat(input: InternalChatCreateInput): Promise<InternalChatAnswer> {
  return api.call("POST", "/internal-chats", internalChatAnswer, { body: input });
}

/** PUT /api/internal-chats/{id} → the group, or null when the caller left it (204). */
export async function updateInternalChat(id: string, input: { name?: string; memberIds?: string[] }): Promise<InternalChatAnswer | null> {
  const answer = await api.call("PUT", `/internal-chats/${encodeURIComponent(id)}`, internalChatAnswer.nullable(), { body: input });
  return answer;
}

/** What the composer sends: text, or a file with an optional caption. */
export type InternalDraft = { body: string; file: File | null };

/** POST /api/internal-chats/{id}/messages: JSON for text, multipart with a file. */
export function sendInternalMessage(chatId: string, draft: InternalDraft): Promise<InternalMessageAnswer> {
  const path = `/internal-chats/${encodeURIComponent(chatId)}/messages`;
  if (!draft.file) return api.call("POST", path, internalMessageAnswer, { body: { body: draft.body } });
  const form = new FormData();
  form.set("file", draft.file, draft.file.name);
  if (draft.body) form.set("body", draft.body);
  return api.call("POST", path, internalMessageAnswer, { form });
}

/** POST /api/internal-chats/{id}/read → the caller's read mark. */
export function markInternalChatRead(chatId: string): Promise<InternalReadAnswer> {
  return api.call("POST", `/internal-chats/${encodeURIComponent(chatId)}/read`, internalReadAnswer);
}

/** POST /api/internal-chats/{id}/typing (best effort: a failure is ignored). */
export function sendInternalTyping(chatId: string, state: "typing" | "paused"): void {
  void api.send("POST", `/internal-chats/${encodeURIComponent(chatId)}/typing`, { body: { state } }).catch(() => undefined);
}
