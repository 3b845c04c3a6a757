/**
 * Instagram (issue 15): the professional account behind an `instagram` connection, the OAuth
 * `state` values of Instagram's business login, the contacts' Instagram profiles, and comment
 * automations (a comment matching a rule → a private reply, an optional public reply, and a flow
 * when the person answers the DM). Sources: shared/reference/wire-formats.md "Instagram",
 * wire-formats-wave2.md §3.
 *
 * The access token itself is the connection's `access_token_enc` (AES-GCM, worker/lib/secrets.ts),
 * like a Cloud API token; this table holds what routes webhooks and refreshes it.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import type { KeywordRule } from "./keywords";

export const instagramAccounts = sqliteTable(
  "instagram_accounts",
  {
    /** connections.id of the `instagram` connection (one account per connection). */
    connectionId: text("connection_id").primaryKey(),
    companyId: text("company_id").notNull(),
    /** The professional account id (`/me` `user_id`): `entry[].id` of every webhook. A string: it exceeds 2^53. */
    igUserId: text("ig_user_id").notNull(),
    username: text("username").notNull().default(""),
    pictureUrl: text("picture_url"),
    /** When the long-lived token expires (ms UTC; 60 days after it was issued or refreshed). */
    tokenExpiresAt: integer("token_expires_at").notNull(),
    /** When the token was issued or last refreshed (ms UTC); Meta refreshes only tokens ≥ 24 h old. */
    tokenRefreshedAt: integer("token_refreshed_at").notNull(),
    ...timestamps,
  },
  (t) => [
    // Webhooks are routed by the account id; one connection per account.
    uniqueIndex("instagram_accounts_ig_user_uq").on(t.igUserId),
    // The daily refresh job reads the tokens that expire soonest.
    index("instagram_accounts_expiry_idx").on(t.tokenExpiresAt),
  ],
);

export type InstagramAccountRow = typeof instagramAccounts.$inferSelect;

/**
 * A `state` handed to Instagram's authorisation page: bound to the company and the user who asked,
 * valid until `expires_at`, used once (`used_at`). Only its SHA-256 is stored.
 */
export const instagramOauthStates = sqliteTable(
  "instagram_oauth_states",
  {
    /** SHA-256 hex of the state value. */
    stateHash: text("state_hash").primaryKey(),
    companyId: text("company_id").notNull(),
    userId: text("user_id").notNull(),
    /** The redirect_uri sent to the authorisation page (the token exchange must repeat it exactly). */
    redirectUri: text("redirect_uri").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull(),
  },
  // Expired states are deleted by age.
  (t) => [index("instagram_oauth_states_expiry_idx").on(t.expiresAt)],
);

/** What Instagram says about a contact (`GET /{igsid}?fields=name,username,profile_pic`), by IGSID. */
export const instagramProfiles = sqliteTable(
  "instagram_profiles",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    /** The Instagram-scoped id: the contact's identity on the channel (contact_identities.external_id). */
    igsid: text("igsid").notNull(),
    name: text("name"),
    username: text("username"),
    /** Instagram's CDN link of the profile picture (expires; refreshed with the profile). */
    pictureUrl: text("picture_url"),
    /** When the profile was read (ms UTC); read again after a day. */
    fetchedAt: integer("fetched_at").notNull(),
  },
  // One profile per company and IGSID.
  (t) => [uniqueIndex("instagram_profiles_uq").on(t.companyId, t.igsid)],
);

export type InstagramProfileRow = typeof instagramProfiles.$inferSelect;

/**
 * A comment automation of an Instagram connection: a comment whose text matches `rules` (the
 * keyword trigger's `start_with|contains|is`) on one of `media_ids` (null: every post and reel)
 * gets `private_reply` as a DM (`recipient.comment_id`), `public_reply` under the comment when set,
 * and `flow_id` starts when the person answers the DM.
 */
export const instagramCommentRules = sqliteTable(
  "instagram_comment_rules",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    connectionId: text("connection_id").notNull(),
    name: text("name").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    rules: text("rules", { mode: "json" }).$type<KeywordRule[]>().notNull(),
    /** JSON array of media ids, or null for every post and reel. */
    mediaIds: text("media_ids", { mode: "json" }).$type<string[] | null>(),
    privateReply: text("private_reply").notNull(),
    publicReply: text("public_reply"),
    /** flows.id started when the person answers the private reply (null: none). */
    flowId: text("flow_id"),
    ...timestamps,
  },
  // The webhook reads a connection's rules, oldest first.
  (t) => [index("instagram_comment_rules_connection_idx").on(t.connectionId, t.createdAt)],
);

export type InstagramCommentRuleRow = typeof instagramCommentRules.$inferSelect;

/**
 * What was done for one comment (at most once: duplicate notifications of boosted posts find the
 * unique key taken). `flow_started_at` is set when the person's first DM after the private reply
 * started the rule's flow.
 */
export const instagramCommentActions = sqliteTable(
  "instagram_comment_actions",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    connectionId: text("connection_id").notNull(),
    commentId: text("comment_id").notNull(),
    ruleId: text("rule_id").notNull(),
    /** The commenter's IGSID. */
    fromIgsid: text("from_igsid").notNull(),
    mediaId: text("media_id"),
    text: text("text").notNull().default(""),
    privateReplyAt: integer("private_reply_at"),
    publicReplyAt: integer("public_reply_at"),
    /** Why a reply was not sent (Meta's error, `expired` past 7 days), or null. */
    error: text("error"),
    flowId: text("flow_id"),
    flowStartedAt: integer("flow_started_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // One action per comment (Meta: one private reply per comment; duplicates act once).
    uniqueIndex("instagram_comment_actions_comment_uq").on(t.connectionId, t.commentId),
    // A DM looks up the private replies waiting for the sender's answer.
    index("instagram_comment_actions_sender_idx").on(t.connectionId, t.fromIgsid, t.createdAt),
  ],
);

export type InstagramCommentActionRow = typeof instagramCommentActions.$inferSelect;
