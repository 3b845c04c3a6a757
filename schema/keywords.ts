/**
 * Keyword triggers (issue 5 "Triggers"; spec §2 /keywords): when an inbound message matches one of
 * the rules (`start_with`, `contains`, `is` over a word list, case- and accent-insensitive) and the
 * trigger is on, its flow starts (DESIGN.md "The main job" step 3). `created_messages` counts the
 * messages that started it.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

import type { KeywordRuleType } from "./enums";

/** How a rule matches, defined in schema/enums.ts (imported by the web without drizzle). */
export { KEYWORD_RULE_TYPES, type KeywordRuleType } from "./enums";

/** One rule: the message (folded) starts with, contains, or is one of `words`. */
export type KeywordRule = { type: KeywordRuleType; words: string[] };

export const keywords = sqliteTable(
  "keywords",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    turnOn: integer("turn_on", { mode: "boolean" }).notNull().default(true),
    rules: text("rules", { mode: "json" }).$type<KeywordRule[]>().notNull(),
    /** flows.id of the same company. */
    flowId: text("flow_id").notNull(),
    createdMessages: integer("created_messages").notNull().default(0),
    ...timestamps,
  },
  // The pipeline reads a company's triggers that are on, oldest first, for every inbound message.
  (t) => [
    index("keywords_company_idx").on(t.companyId, t.turnOn, t.createdAt),
    // Keyword names are unique in the company, ignoring case (409 name_in_use).
    uniqueIndex("keywords_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
  ],
);

export type KeywordRow = typeof keywords.$inferSelect;
