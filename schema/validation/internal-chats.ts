/**
 * Internal chat requests and answers (issue 12, spec §2 Internal chat; worker/routes/internal-chats.ts),
 * shared by the worker (request parsing) and the web (answer parsing). Pure zod, no drizzle.
 */
import { z } from "zod";
import { idSchema } from "./common";

/** Longest text of an internal message (the chat centre's limit). */
export const MAX_INTERNAL_MESSAGE_LENGTH = 4096;
/** Longest group name. */
export const MAX_GROUP_NAME_LENGTH = 80;
/** Most members a group names in one request (besides the caller). */
export const MAX_GROUP_MEMBERS = 256;

const memberIds = z
  .array(idSchema, { error: "required" })
  .max(MAX_GROUP_MEMBERS, { error: "too_many" })
  .transform((ids) => [...new Set(ids)]);

const groupName = z
  .string({ error: "required" })
  .trim()
  .min(1, { error: "required" })
  .max(MAX_GROUP_NAME_LENGTH, { error: "too_long" });

/**
 * POST /api/internal-chats: a direct conversation with one other member (`memberId`), or a group
 * with a name and members (the caller is always added).
 */
export const internalChatCreateInput = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("direct"), memberId: idSchema }),
    z.object({ kind: z.literal("group"), name: groupName, memberIds: memberIds.refine((ids) => ids.length > 0, { error: "required" }) }),
  ],
  { error: "invalid_kind" },
);
export type InternalChatCreateInput = z.infer<typeof internalChatCreateInput>;

/**
 * PUT /api/internal-chats/{id} (groups only): a new name and/or the whole new member list (members
 * left out are removed; leaving out oneself is leaving the group).
 */
export const internalChatUpdateInput = z
  .object({ name: groupName.optional(), memberIds: memberIds.optional() })
  .refine((input) => input.name !== undefined || input.memberIds !== undefined, { error: "required", path: ["name"] });
export type InternalChatUpdateInput = z.infer<typeof internalChatUpdateInput>;

/** GET /api/internal-chats?search=&cursor=&limit= */
export const internalChatListQuery = z.object({
  search: z.string().trim().max(40, { error: "too_long" }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100, { error: "invalid_limit" }).default(50),
});

/** GET /api/internal-chats/{id}/messages?cursor=&limit= */
export const internalMessageListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100, { error: "invalid_limit" }).default(50),
});

/** POST /api/internal-chats/{id}/messages as JSON. */
export const internalTextMessageInput = z.object({
  body: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(MAX_INTERNAL_MESSAGE_LENGTH, { error: "too_long" }),
});

/** POST /api/internal-chats/{id}/messages as multipart: a file with an optional caption. */
export const internalFileMessageForm = z.object({
  file: z.instanceof(File, { error: "file_required" }),
  body: z.string().trim().max(MAX_INTERNAL_MESSAGE_LENGTH, { error: "too_long" }).default(""),
});

/** POST /api/internal-chats/{id}/typing */
export const internalTypingInput = z.object({ state: z.enum(["typing", "paused"], { error: "invalid_value" }) });

// --- answers --------------------------------------------------------------------------------------

/** A conversation's member as the API shows them. */
export const internalChatMemberAnswer = z.object({
  memberId: z.string(),
  userId: z.string(),
  name: z.string(),
  image: z.string().nullable(),
});
export type InternalChatMemberAnswer = z.infer<typeof internalChatMemberAnswer>;

/** A conversation in the caller's list; `unreadCount` is the caller's. Times in ms UTC. */
export const internalChatAnswer = z.object({
  id: z.string(),
  kind: z.enum(["direct", "group"]),
  /** The group's name; null for a direct conversation (show the other member). */
  name: z.string().nullable(),
  createdByMemberId: z.string(),
  members: z.array(internalChatMemberAnswer),
  lastMessage: z.object({ preview: z.string(), at: z.number() }).nullable(),
  lastSeq: z.number(),
  /** The caller's read mark (the seq of the last message they read). */
  lastReadSeq: z.number(),
  unreadCount: z.number(),
  activityAt: z.number(),
  createdAt: z.number(),
});
export type InternalChatAnswer = z.infer<typeof internalChatAnswer>;

/** GET /api/internal-chats → by last activity, newest first. */
export const internalChatPage = z.object({ results: z.array(internalChatAnswer), cursor: z.string().nullable() });
export type InternalChatPage = z.infer<typeof internalChatPage>;

/** A message of an internal conversation. `media.url` is a signed, expiring link. */
export const internalMessageAnswer = z.object({
  id: z.string(),
  chatId: z.string(),
  seq: z.number(),
  sender: z.object({ memberId: z.string(), name: z.string() }),
  body: z.string(),
  media: z.object({ url: z.string(), mime: z.string(), name: z.string().nullable(), size: z.number().nullable() }).nullable(),
  mentions: z.array(z.string()),
  createdAt: z.number(),
});
export type InternalMessageAnswer = z.infer<typeof internalMessageAnswer>;

/** GET /api/internal-chats/{id}/messages → newest page first; `results` oldest first inside the page, `cursor` to older ones. */
export const internalMessagePage = z.object({ results: z.array(internalMessageAnswer), cursor: z.string().nullable() });
export type InternalMessagePage = z.infer<typeof internalMessagePage>;

/** POST /api/internal-chats/{id}/read → the caller's read mark. */
export const internalReadAnswer = z.object({ chatId: z.string(), lastReadSeq: z.number(), unreadCount: z.number() });
export type InternalReadAnswer = z.infer<typeof internalReadAnswer>;

/** The @mentions of `text` among `members`: a member is mentioned by `@` followed by their full name (case-insensitive). */
export function mentionedMembers<T extends { memberId: string; name: string }>(text: string, members: readonly T[]): string[] {
  const lower = text.toLocaleLowerCase();
  const found = new Set<string>();
  // Longest names first, so "@Ana Souza" does not count as "@Ana" too.
  const sorted = [...members].sort((a, b) => b.name.length - a.name.length);
  let rest = lower;
  for (const member of sorted) {
    const needle = `@${member.name.toLocaleLowerCase()}`;
    if (!member.name.trim()) continue;
    let index = rest.indexOf(needle);
    while (index >= 0) {
      const after = rest.charAt(index + needle.length);
      if (!after || !/[\p{L}\p{N}_]/u.test(after)) {
        found.add(member.memberId);
        rest = rest.slice(0, index) + " ".repeat(needle.length) + rest.slice(index + needle.length);
      }
      index = rest.indexOf(needle, index + 1);
    }
  }
  return [...found];
}
