/**
 * Comment automations of Instagram connections (issue 15): a comment on a post or reel whose text
 * matches a rule (the keyword trigger's `start_with|contains|is`, worker/lib/flows.ts
 * `keywordMatches`) on one of its posts gets one private reply (a DM to the commenter,
 * `recipient.comment_id`, at most one per comment and only within 7 days of it), an optional
 * public reply under the comment (top-level comments only), and the rule's flow starts when the
 * person answers the DM (worker/lib/instagram-inbound.ts).
 *
 * Each comment acts at most once: `instagram_comment_actions` has a unique key on (connection,
 * comment id), claimed before anything is sent, so a duplicate notification (boosted posts) finds
 * it taken. A private reply that fails transiently releases the claim and throws, so the webhook
 * answers 5xx and Meta delivers the comment again.
 */
import { and, asc, desc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import { instagramCommentActions, instagramCommentRules, type ConnectionRow, type InstagramCommentRuleRow } from "../../schema";
import type { CommentRuleAnswer } from "../../schema/validation/instagram";
import type { InstagramComment } from "../channels/instagram-parse";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { isUniqueViolation } from "./db";
import { keywordMatches } from "./flows";
import { newId } from "./ids";
import { InstagramError, instagramOptions, sendPrivateReply, sendPublicReply } from "./instagram-graph";

/** Meta allows a private reply within 7 days of the comment (ms). */
export const PRIVATE_REPLY_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** A rule as the API answers it. */
export function presentCommentRule(row: InstagramCommentRuleRow): CommentRuleAnswer {
  return {
    id: row.id,
    connectionId: row.connectionId,
    name: row.name,
    active: row.active,
    rules: row.rules,
    mediaIds: row.mediaIds ?? null,
    privateReply: row.privateReply,
    publicReply: row.publicReply,
    flowId: row.flowId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Whether `rule` takes `comment`: it is on, its posts include the comment's, and its keywords match. */
export function ruleTakes(rule: Pick<InstagramCommentRuleRow, "active" | "rules" | "mediaIds">, comment: Pick<InstagramComment, "text" | "mediaId">): boolean {
  if (!rule.active) return false;
  if (rule.mediaIds && rule.mediaIds.length > 0 && (!comment.mediaId || !rule.mediaIds.includes(comment.mediaId))) return false;
  return keywordMatches(rule, comment.text);
}

/** What became of one comment. */
export type CommentOutcome = "no_rule" | "duplicate" | "replied" | "expired" | "failed";

/**
 * Acts on one comment of `connection`'s account (`igUserId`, `token`): the first matching rule
 * (oldest) answers it, once. Throws InstagramError when the private reply failed transiently (the
 * claim is released first, so Meta's redelivery tries again).
 */
export async function actOnComment(
  env: AppEnv,
  db: Db,
  connection: Pick<ConnectionRow, "id" | "companyId">,
  account: { igUserId: string; token: string },
  comment: InstagramComment,
  at = Date.now(),
): Promise<CommentOutcome> {
  const rules = await db
    .select()
    .from(instagramCommentRules)
    .where(and(eq(instagramCommentRules.connectionId, connection.id), eq(instagramCommentRules.companyId, connection.companyId), eq(instagramCommentRules.active, true)))
    .orderBy(asc(instagramCommentRules.createdAt));
  const rule = rules.find((r) => ruleTakes(r, comment));
  if (!rule) return "no_rule";
  const actionId = newId();
  try {
    await db.insert(instagramCommentActions).values({
      id: actionId,
      companyId: connection.companyId,
      connectionId: connection.id,
      commentId: comment.id,
      ruleId: rule.id,
      fromIgsid: comment.fromId,
      mediaId: comment.mediaId,
      text: comment.text.slice(0, 2200),
      flowId: rule.flowId,
      createdAt: at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
  const where = and(eq(instagramCommentActions.id, actionId), eq(instagramCommentActions.companyId, connection.companyId));
  if (at - comment.time > PRIVATE_REPLY_WINDOW_MS) {
    await db.update(instagramCommentActions).set({ error: "expired" }).where(where);
    return "expired";
  }
  const options = instagramOptions(env);
  try {
    await sendPrivateReply(options, account.igUserId, account.token, comment.id, rule.privateReply);
  } catch (error) {
    if (error instanceof InstagramError && error.retryable) {
      await db.delete(instagramCommentActions).where(where);
      throw error;
    }
    await db.update(instagramCommentActions).set({ error: error instanceof Error ? error.message.slice(0, 500) : "failed" }).where(where);
    return "failed";
  }
  await db.update(instagramCommentActions).set({ privateReplyAt: Date.now() }).where(where);
  // Public replies go only under top-level comments (Meta refuses replies to replies).
  if (rule.publicReply?.trim() && !comment.parentId) {
    try {
      await sendPublicReply(options, account.token, comment.id, rule.publicReply);
      await db.update(instagramCommentActions).set({ publicReplyAt: Date.now() }).where(where);
    } catch (error) {
      await db.update(instagramCommentActions).set({ error: error instanceof Error ? error.message.slice(0, 500) : "failed" }).where(where);
    }
  }
  return "replied";
}

/**
 * The comment rule flow waiting for `igsid`'s answer on the connection: the newest private reply
 * of the last 7 days whose rule names a flow not started yet. Answers the action's id and flow.
 */
export async function pendingCommentFlow(db: Db, connection: Pick<ConnectionRow, "id" | "companyId">, igsid: string, at = Date.now()): Promise<{ actionId: string; flowId: string } | null> {
  const row = await db.query.instagramCommentActions.findFirst({
    where: and(
      eq(instagramCommentActions.connectionId, connection.id),
      eq(instagramCommentActions.companyId, connection.companyId),
      eq(instagramCommentActions.fromIgsid, igsid),
      isNotNull(instagramCommentActions.flowId),
      isNull(instagramCommentActions.flowStartedAt),
      gt(instagramCommentActions.privateReplyAt, at - PRIVATE_REPLY_WINDOW_MS),
    ),
    orderBy: [desc(instagramCommentActions.createdAt)],
    columns: { id: true, flowId: true },
  });
  return row?.flowId ? { actionId: row.id, flowId: row.flowId } : null;
}

/** Marks a waiting comment flow as handed to the contact's session (it starts once). */
export async function markCommentFlowStarted(db: Db, companyId: string, actionId: string, at = Date.now()): Promise<void> {
  await db
    .update(instagramCommentActions)
    .set({ flowStartedAt: at })
    .where(and(eq(instagramCommentActions.id, actionId), eq(instagramCommentActions.companyId, companyId)));
}
