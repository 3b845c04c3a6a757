/**
 * Inputs of the flow builder, keyword triggers, default flows and runs (issue 5;
 * .tmp/flows-api.md). Pure zod, shared by the worker (request parsing) and the web (forms).
 *
 * Reason codes (the values of `error.fields` in a 400): `required`, `too_long`, `invalid_id`,
 * `invalid_type`, `too_many`, `invalid_parent`, plus the flow document's own codes under
 * `draft.nodes.<nodeId>` / `draft` (see schema/flows/validate.ts).
 */
import { z } from "zod";
import { FLOW_TYPES } from "../flow-builders";
import { KEYWORD_RULE_TYPES } from "../keywords";
import { idSchema } from "./common";

const name = z.string({ error: "required" }).trim().min(1, { error: "required" }).max(100, { error: "too_long" });

/** `root` or a folder id (list filters). */
const rootOrId = z.union([z.literal("root"), idSchema]);

/** GET /api/folders?parentId=<id>|root (absent: every folder of the company). */
export const folderListQuery = z.object({ parentId: rootOrId.optional() });

/** POST /api/folders {name, parentId?}. */
export const folderInput = z.object({ name, parentId: idSchema.nullable().default(null) });

/** PUT /api/folders/{id} {name?, parentId?}. */
export const folderUpdate = z.object({ name: name.optional(), parentId: idSchema.nullable().optional() });

/** GET /api/flows?folderId=<id>|root&search= (absent folderId: every builder). */
export const flowListQuery = z.object({ folderId: rootOrId.optional(), search: z.string().trim().max(100, { error: "too_long" }).optional() });

const flowType = z.enum(FLOW_TYPES, { error: "invalid_type" });

/**
 * POST /api/flows/{id}/duplicate {name?}: the copy's name, made by the app in the user's language
 * (e.g. "Vendas (cópia)"); without one the worker names it "<name> (copy)".
 */
export const flowDuplicateInput = z.object({ name: name.optional() });

/** POST /api/flows {name, folderId?, type}. */
export const flowCreateInput = z.object({ name, folderId: idSchema.nullable().default(null), type: flowType.default("default") });

/**
 * PUT /api/flows/{id}: every key optional. `draft` is a FlowDocument (checked by parseFlow in the
 * route, so the answer names the block). `allowedCompanyIds`: companies that may clone when
 * `restrictCompanies` (≤ 100).
 */
export const flowUpdateInput = z.object({
  name: name.optional(),
  folderId: idSchema.nullable().optional(),
  type: flowType.optional(),
  draft: z.unknown().optional(),
  shareActive: z.boolean({ error: "invalid_type" }).optional(),
  cloneActive: z.boolean({ error: "invalid_type" }).optional(),
  restrictCompanies: z.boolean({ error: "invalid_type" }).optional(),
  allowedCompanyIds: z.array(idSchema).max(100, { error: "too_many" }).optional(),
});

/** POST /api/flows/{id}/move {folderId: id | null} (null = root). */
export const flowMoveInput = z.object({ folderId: idSchema.nullable() });

/** GET /api/flows/{id}/media-url?ref=r2:<key>. */
export const mediaRefQuery = z.object({ ref: z.string({ error: "required" }).regex(/^r2:media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/, { error: "invalid_ref" }) });

/** One keyword rule: 1..50 words of 1..100 characters. */
export const keywordRuleInput = z.object({
  type: z.enum(KEYWORD_RULE_TYPES, { error: "invalid_type" }),
  words: z
    .array(z.string().trim().min(1, { error: "required" }).max(100, { error: "too_long" }))
    .min(1, { error: "required" })
    .max(50, { error: "too_many" }),
});

/** POST/PUT /api/keywords {name, turnOn, rules (1..20), flowId}. */
export const keywordInput = z.object({
  name,
  turnOn: z.boolean({ error: "invalid_type" }).default(true),
  rules: z.array(keywordRuleInput).min(1, { error: "required" }).max(20, { error: "too_many" }),
  // An empty choice is "no flow chosen" (`flow_required`), not a malformed id.
  flowId: z.string({ error: "flow_required" }).min(1, { error: "flow_required", abort: true }).uuid({ error: "invalid_id" }),
});

/** GET /api/companies/default-flows?id=<connectionId>. */
export const defaultFlowsQuery = z.object({ id: idSchema });

/** PUT /api/companies/default-flows: a null (or absent) flow id clears the slot. */
export const defaultFlowsInput = z.object({
  channelId: idSchema,
  defaultFlowId: idSchema.nullable().default(null),
  mediaFlowId: idSchema.nullable().default(null),
  campaignFlowId: idSchema.nullable().default(null),
  storyFlowId: idSchema.nullable().default(null),
});

/** POST /api/tickets/{id}/start-flow {flowId}. */
export const startFlowInput = z.object({ flowId: idSchema });
