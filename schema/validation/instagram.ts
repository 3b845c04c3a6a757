/**
 * Request bodies and answers of the Instagram calls (issue 15): the business-login callback and
 * comment automations. Shared with the web app (no drizzle imports).
 */
import { z } from "zod";
import type { KeywordRuleType } from "../enums";
import { idSchema, nameSchema } from "./common";
import { keywordRuleInput } from "./flows";

/** POST /api/channels/instagram/callback: what Instagram put on the redirect (`#_` may trail the code). */
export const instagramCallbackInput = z.object({
  code: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(2048, { error: "too_long" }),
  state: z.string({ error: "required" }).trim().min(16, { error: "invalid_state" }).max(256, { error: "invalid_state" }),
});

/** A media id of a post or reel (digits, as Instagram shows them). */
const mediaId = z.string().trim().regex(/^[0-9_]{1,64}$/, { error: "invalid_media_id" });

/** POST/PUT /api/connections/{id}/comment-rules: a comment automation. */
export const commentRuleInput = z.object({
  name: nameSchema,
  active: z.boolean().default(true),
  /** The keyword trigger's rules (`start_with|contains|is` over words). */
  rules: z.array(keywordRuleInput).min(1, { error: "required" }).max(20, { error: "too_many" }),
  /** Chosen posts and reels by media id; null or empty: every post. */
  mediaIds: z.array(mediaId).max(50, { error: "too_many" }).nullable().default(null),
  /** The DM sent to the commenter (Instagram: at most 1,000 characters). */
  privateReply: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(1000, { error: "too_long" }),
  /** Optional reply under the comment. */
  publicReply: z.preprocess((v) => (v === "" ? null : v), z.string().trim().max(2200, { error: "too_long" }).nullable().default(null)),
  /** The flow started when the person answers the DM (a flow of the company), or null. */
  flowId: z.preprocess((v) => (v === "" ? null : v), idSchema.nullable().default(null)),
});
export type CommentRuleInput = z.input<typeof commentRuleInput>;

/** A comment automation as the API answers it. */
export type CommentRuleAnswer = {
  id: string;
  connectionId: string;
  name: string;
  active: boolean;
  rules: { type: KeywordRuleType; words: string[] }[];
  mediaIds: string[] | null;
  privateReply: string;
  publicReply: string | null;
  flowId: string | null;
  createdAt: number;
  updatedAt: number;
};
