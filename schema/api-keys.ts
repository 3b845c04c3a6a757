/**
 * Company API keys: integration identities of the public API (DESIGN.md "API conventions").
 * A key is not a member: it reaches only the routes of the public API, within the scopes chosen
 * when it was created, and what it does is recorded as done by the key. Revocable at any time;
 * only the SHA-256 of the key is stored, the key itself is shown once.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id } from "./columns";

import type { ApiKeyScope } from "./enums";

/** The scopes a key can hold (defined in schema/enums.ts, which the web imports without drizzle). */
export { API_KEY_SCOPES, type ApiKeyScope } from "./enums";

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the whole key (`cv_` + 32 random bytes, base64url). */
    keyHash: text("key_hash").notNull(),
    /** Last four characters of the key, for the masked display. */
    hint: text("hint").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<ApiKeyScope[]>().notNull(),
    /** The member who created it (members.id). */
    createdByMemberId: text("created_by_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    /** Set when revoked: a revoked key answers 401 at once. */
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_company_idx").on(t.companyId, t.createdAt)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
