/** Query and bodies of the chat-centre calls (spec §4 Chat list filters, Ticket status). */
import { z } from "zod";
import { idSchema } from "./common";

/** GET /api/tickets */
export const ticketListQuery = z.object({
  status: z.enum(["all", "open", "pending", "closed"], { error: "invalid_status" }).default("all"),
  type: z.enum(["all", "chats", "unread", "groups", "mine"], { error: "invalid_type" }).default("all"),
  /**
   * Name or phone; capped so the LIKE pattern (`%…%`, with `%`, `_` and backslash escaped) stays within
   * D1's 50-byte limit: counted in UTF-8 bytes after escaping, not in characters.
   */
  search: z
    .string()
    .trim()
    .max(40, { error: "too_long" })
    .refine((v) => new TextEncoder().encode(v.replace(/[%_\\]/g, "\\$&")).length <= 48, { error: "too_long" })
    .optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1, { error: "invalid_limit" }).max(100, { error: "invalid_limit" }).default(30),
});

/** GET /api/tickets/{id}/messages */
export const messageListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100, { error: "invalid_limit" }).default(50),
});

/** POST /api/tickets/{id}/messages as JSON. */
export const textMessageInput = z.object({
  type: z.literal("text", { error: "invalid_type" }),
  body: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(4096, { error: "too_long" }),
  quotedId: idSchema.optional(),
  idempotencyKey: z.string().trim().min(8).max(100).optional(),
});

/** POST /api/tickets/{id}/transfer */
export const transferInput = z.object({ memberId: idSchema });
