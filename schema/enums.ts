/**
 * Value lists that the drizzle table modules and the web app share, in a module that imports
 * nothing, so the web bundle can use them without loading drizzle-orm and the table definitions
 * (issue 9 "Load only what a screen needs"). Each table module re-exports its own lists, so
 * `import { FLOW_TYPES } from "schema/flow-builders"` keeps working on the worker side.
 */

/** The scopes a key can hold; each public API route names the one it needs (schema/api-keys.ts). */
export const API_KEY_SCOPES = [
  "contacts:read",
  "contacts:write",
  "tickets:read",
  "messages:send",
  "flows:start",
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Type of a custom field's value (schema/custom-fields.ts; spec §3 Custom field). */
export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "datetime", "name", "email", "document"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Kind of a custom field: built-in, one value per contact, or one company-wide bot variable. */
export const CUSTOM_FIELD_KINDS = ["default", "user", "bot"] as const;
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

/** A builder's type (spec §3 Builder flow): which default slot it is meant for (schema/flow-builders.ts). */
export const FLOW_TYPES = ["default", "media", "campaign", "story_mention"] as const;
export type FlowType = (typeof FLOW_TYPES)[number];

/** How a keyword rule matches an inbound message (schema/keywords.ts). */
export const KEYWORD_RULE_TYPES = ["start_with", "contains", "is"] as const;
export type KeywordRuleType = (typeof KEYWORD_RULE_TYPES)[number];
