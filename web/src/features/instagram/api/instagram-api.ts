/**
 * Instagram calls (worker/routes/instagram.ts; issue 15): the business login (authorisation URL,
 * callback) and a connection's comment automations. Answers are parsed at the edge.
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import type { CommentRuleAnswer, CommentRuleInput } from "../../../../../schema/validation/instagram";

const authorizeAnswer = z.object({ url: z.string().url(), expiresAt: z.number() });

/** POST /api/channels/instagram/authorize → Instagram's login page for this company and user (valid 15 minutes). */
export function startInstagramLogin(): Promise<{ url: string; expiresAt: number }> {
  return api.call("POST", "/channels/instagram/authorize", authorizeAnswer);
}

const connectedAnswer = z.object({ id: z.string(), name: z.string(), channel: z.string(), status: z.string() });

/** POST /api/channels/instagram/callback {code, state} → the Instagram connection, connected. */
export function completeInstagramLogin(input: { code: string; state: string }): Promise<z.infer<typeof connectedAnswer>> {
  return api.call("POST", "/channels/instagram/callback", connectedAnswer, { body: input });
}

export const commentRuleAnswer: z.ZodType<CommentRuleAnswer> = z.object({
  id: z.string(),
  connectionId: z.string(),
  name: z.string(),
  active: z.boolean(),
  rules: z.array(z.object({ type: z.enum(["start_with", "contains", "is"]), words: z.array(z.string()) })),
  mediaIds: z.array(z.string()).nullable(),
  privateReply: z.string(),
  publicReply: z.string().nullable(),
  flowId: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** Query keys of the Instagram feature. */
export const instagramKeys = {
  all: ["instagram"] as const,
  commentRules: (connectionId: string) => [...instagramKeys.all, "comment-rules", connectionId] as const,
};

/** GET /api/connections/{id}/comment-rules → the rules, oldest first (the first that matches acts). */
export const commentRulesQuery = (connectionId: string) =>
  queryOptions({
    queryKey: instagramKeys.commentRules(connectionId),
    queryFn: ({ signal }) => api.call("GET", `/connections/${encodeURIComponent(connectionId)}/comment-rules`, z.array(commentRuleAnswer), { signal }),
  });

/** POST (new) or PUT (existing `ruleId`) a comment automation. */
export function saveCommentRule(connectionId: string, input: CommentRuleInput, ruleId?: string): Promise<CommentRuleAnswer> {
  const base = `/connections/${encodeURIComponent(connectionId)}/comment-rules`;
  return ruleId ? api.call("PUT", `${base}/${encodeURIComponent(ruleId)}`, commentRuleAnswer, { body: input }) : api.call("POST", base, commentRuleAnswer, { body: input });
}

/** DELETE /api/connections/{id}/comment-rules/{ruleId}. */
export function deleteCommentRule(connectionId: string, ruleId: string): Promise<void> {
  return api.send("DELETE", `/connections/${encodeURIComponent(connectionId)}/comment-rules/${encodeURIComponent(ruleId)}`);
}
