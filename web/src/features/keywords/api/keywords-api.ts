/**
 * Keyword triggers (worker/routes/keywords.ts; spec §3 Keyword trigger; permission `keywords`):
 * list, create, edit, delete; and the builders a trigger can start (GET /api/flows).
 */
import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/session";
import { flowSummaryList, keywordAnswer, keywordList } from "@/lib/answers";
import type { KeywordAnswer } from "../../../../../schema/flow-api";
import type { keywordInput } from "../../../../../schema/validation/flows";

/** What POST/PUT /api/keywords take. */
export type KeywordInput = z.output<typeof keywordInput>;

/** Query keys of keyword triggers. */
export const keywordKeys = {
  all: ["keywords"] as const,
  list: () => [...keywordKeys.all, "list"] as const,
  flows: () => [...keywordKeys.all, "flows"] as const,
};

/** GET /api/keywords → every trigger of the company. */
export const keywordsQuery = () => queryOptions({ queryKey: keywordKeys.list(), queryFn: ({ signal }) => api.call("GET", "/keywords", keywordList, { signal }) });

/** GET /api/flows → the builders a trigger can start (empty without the `flow` permission). */
export const keywordFlowsQuery = () =>
  queryOptions({ queryKey: keywordKeys.flows(), queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }), staleTime: 30_000, retry: false });

/** POST /api/keywords → 201 the trigger. */
export function createKeyword(input: KeywordInput): Promise<KeywordAnswer> {
  return api.call("POST", "/keywords", keywordAnswer, { body: input });
}

/** PUT /api/keywords/{id} → the trigger. */
export function updateKeyword(id: string, input: KeywordInput): Promise<KeywordAnswer> {
  return api.call("PUT", `/keywords/${encodeURIComponent(id)}`, keywordAnswer, { body: input });
}

/** DELETE /api/keywords/{id} → 204. */
export function deleteKeyword(id: string): Promise<void> {
  return api.send("DELETE", `/keywords/${encodeURIComponent(id)}`);
}
