/**
 * Inputs and answers of inbound webhooks (issue 11; spec §2 Webhooks, §3 Webhook, §4 Webhook mode,
 * §5 Webhook phone rules). Pure zod, shared by the worker (request parsing) and the web (forms).
 *
 * A webhook receives requests at a secret URL (`POST /api/hooks/{token}`); in `production` mode each
 * request is mapped (phone, name and e-mail read from paths into the body) to a contact, and its
 * actions run in order, each optionally guarded by a condition on a body path. In `test` mode
 * requests are only captured, so the user can pick paths by clicking a captured body.
 *
 * Body paths: `buyer.phone`, `data.customer.phones[0].number`, a form field name
 * (`billing_phone`, `customer[phone]`: a top-level key matching the whole path wins), or bracketed
 * JSON strings for keys with dots (`data["first.name"]`). See `parseBodyPath`.
 *
 * Reason codes (the values of `error.fields` in a 400): `required`, `too_long`, `invalid_id`,
 * `invalid_path`, `too_many`, `path_or_value`, `invalid_type`, `too_small`, `too_big`.
 */
import { z } from "zod";
import { idSchema } from "./common";

/** `test`: inactive, requests only captured; `production`: active, requests acted on (spec §4). */
export const WEBHOOK_MODES = ["test", "production"] as const;
export type WebhookMode = (typeof WEBHOOK_MODES)[number];

/**
 * A received request's state: `captured` (test mode, kept only), `pending` (production, waiting for
 * the webhook-events queue), `processed`, `failed` (with its reason), `spam` (beyond the per-minute
 * limit: never processed).
 */
export const WEBHOOK_REQUEST_STATES = ["captured", "pending", "processed", "failed", "spam"] as const;
export type WebhookRequestState = (typeof WEBHOOK_REQUEST_STATES)[number];

/** How a condition compares the value at its path (as text) with its value. */
export const CONDITION_OPERATORS = ["equals", "not_equals", "contains", "exists"] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Action types, in the order the editor offers them. */
export const WEBHOOK_ACTION_TYPES = ["start_flow", "add_tag", "remove_tag", "set_field", "add_to_cycle", "move_crm"] as const;
export type WebhookActionType = (typeof WEBHOOK_ACTION_TYPES)[number];

/** Requests per minute above which a webhook is suspected of spam (spec §4), by default. */
export const DEFAULT_SPAM_LIMIT = 60;
/** Most actions per webhook. */
export const MAX_WEBHOOK_ACTIONS = 20;
/** Largest request body a hook accepts (bytes): 1 MiB. */
export const MAX_HOOK_BODY_BYTES = 1024 * 1024;

/** One step of a body path: a key or an array index. */
export type PathStep = string | number;

/**
 * Splits a body path into keys and indices: `a.b[0].c` → ["a", "b", 0, "c"]; `a["x.y"]` → ["a",
 * "x.y"]; `customer[phone]` → ["customer", "phone"]. Null when the text is not a path (empty, an
 * empty segment, an unclosed bracket).
 */
export function parseBodyPath(path: string): PathStep[] | null {
  const steps: PathStep[] = [];
  let i = 0;
  const text = path.trim();
  if (!text) return null;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "[") {
      const close = text.indexOf("]", i);
      if (close < 0) return null;
      const inner = text.slice(i + 1, close);
      if (/^\d+$/.test(inner)) steps.push(Number(inner));
      else if (inner.startsWith('"')) {
        // A JSON string may hold "]": find the closing quote, then the bracket after it.
        let end = i + 2;
        while (end < text.length && !(text[end] === '"' && text[end - 1] !== "\\")) end++;
        if (text[end + 1] !== "]") return null;
        try {
          const key: unknown = JSON.parse(text.slice(i + 1, end + 1));
          if (typeof key !== "string") return null;
          steps.push(key);
        } catch {
          return null;
        }
        i = end + 2;
        if (text[i] === ".") i++;
        continue;
      } else if (inner) steps.push(inner);
      else return null;
      i = close + 1;
      if (text[i] === ".") {
        i++;
        if (i >= text.length) return null;
      }
      continue;
    }
    let end = i;
    while (end < text.length && text[end] !== "." && text[end] !== "[") end++;
    const key = text.slice(i, end);
    if (!key) return null;
    steps.push(key);
    i = end;
    if (text[i] === ".") {
      i++;
      if (i >= text.length) return null;
    }
  }
  return steps;
}

/** The path of `steps` as `parseBodyPath` reads it (plain keys dotted, others bracketed as JSON). */
export function formatBodyPath(steps: readonly PathStep[]): string {
  let out = "";
  for (const step of steps) {
    if (typeof step === "number") out += `[${step}]`;
    else if (/^[^.[\]"\s]+$/.test(step)) out += out ? `.${step}` : step;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out;
}

/**
 * The value at `path` in `body`: a top-level key equal to the whole path first (form field names
 * such as `customer[phone]`), else the parsed steps. Undefined when absent.
 */
export function valueAtPath(body: unknown, path: string): unknown {
  if (isRecord(body) && Object.prototype.hasOwnProperty.call(body, path)) return body[path];
  const steps = parseBodyPath(path);
  if (!steps) return undefined;
  let current: unknown = body;
  for (const step of steps) {
    if (typeof step === "number") {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else if (isRecord(current) && Object.prototype.hasOwnProperty.call(current, step)) current = current[step];
    else return undefined;
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A scalar at a path as text (numbers and booleans written out); null for objects, arrays, null or absent. */
export function textAtPath(body: unknown, path: string): string | null {
  const value = valueAtPath(body, path);
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

/** A path into the received body (see the header). */
export const bodyPathSchema = z
  .string({ error: "required" })
  .trim()
  .min(1, { error: "required" })
  .max(200, { error: "too_long" })
  .refine((path) => parseBodyPath(path) !== null, { error: "invalid_path" });

/** A mapping path, or "" for "not mapped". */
const optionalPath = z.union([z.literal(""), bodyPathSchema]).default("");

/** Where the contact's phone, name and e-mail are in the body ("" = not mapped). */
export const webhookMappingSchema = z.object({ phone: optionalPath, name: optionalPath, email: optionalPath });
export type WebhookMapping = z.infer<typeof webhookMappingSchema>;

/** Guards an action: it runs only when the value at `path` compares true (spec: "status equals approved"). */
export const webhookConditionSchema = z.object({
  path: bodyPathSchema,
  operator: z.enum(CONDITION_OPERATORS, { error: "invalid_type" }),
  value: z.string({ error: "invalid_type" }).max(500, { error: "too_long" }).default(""),
});
export type WebhookCondition = z.infer<typeof webhookConditionSchema>;

const condition = webhookConditionSchema.nullable().default(null);

/** One action (a discriminated union on `type`). */
export const webhookActionSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("start_flow"), flowId: idSchema, connectionId: idSchema, condition }),
    z.object({ type: z.literal("add_tag"), tagId: idSchema, condition }),
    z.object({ type: z.literal("remove_tag"), tagId: idSchema, condition }),
    z
      .object({
        type: z.literal("set_field"),
        customFieldId: idSchema,
        path: bodyPathSchema.optional(),
        value: z.string({ error: "invalid_type" }).max(1000, { error: "too_long" }).optional(),
        condition,
      })
      // Exactly one source: a path into the body, or a fixed value.
      .refine((a) => (a.path === undefined) !== (a.value === undefined), { error: "path_or_value", path: ["path"] }),
    z.object({ type: z.literal("add_to_cycle"), cycleId: idSchema, condition }),
    z.object({ type: z.literal("move_crm"), columnId: idSchema, condition }),
  ],
  { error: "invalid_type" },
);
export type WebhookAction = z.infer<typeof webhookActionSchema>;

/** POST /api/webhooks and PUT /api/webhooks/{id}. */
export const webhookInput = z.object({
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(100, { error: "too_long" }),
  mode: z.enum(WEBHOOK_MODES, { error: "invalid_type" }).default("test"),
  mapping: webhookMappingSchema.default({ phone: "", name: "", email: "" }),
  actions: z.array(webhookActionSchema).max(MAX_WEBHOOK_ACTIONS, { error: "too_many" }).default([]),
  /** Requests per minute above which the webhook falls back to test mode (spec §4). */
  spamLimit: z.number({ error: "invalid_type" }).int({ error: "invalid_type" }).min(1, { error: "too_small" }).max(10_000, { error: "too_big" }).default(DEFAULT_SPAM_LIMIT),
});
export type WebhookInput = z.infer<typeof webhookInput>;

/** GET /api/webhooks/{id}/requests?cursor=&limit=. */
export const webhookRequestsQuery = z.object({
  cursor: z.string().max(500, { error: "too_long" }).optional(),
  limit: z.coerce.number({ error: "invalid_type" }).int({ error: "invalid_type" }).min(1, { error: "too_small" }).max(100, { error: "too_big" }).default(20),
});

/** A webhook as the API answers it. Times in ms UTC. */
export type WebhookAnswer = {
  id: string;
  name: string;
  mode: WebhookMode;
  /** The secret URL requests are posted to (PUBLIC_URL + /api/hooks/{token}). */
  url: string;
  mapping: WebhookMapping;
  actions: WebhookAction[];
  spamLimit: number;
  /** When a burst switched it to test mode (null: never, or switched back since). */
  spamAt: number | null;
  lastRequestAt: number | null;
  createdAt: number;
  updatedAt: number;
};

/** What one action did for one request. */
export type WebhookActionOutcome = {
  index: number;
  type: WebhookActionType;
  /** `done`; `skipped` (its condition was false, or nothing to do); `failed` (with `detail`). */
  status: "done" | "skipped" | "failed";
  detail: string | null;
};

/** What a processed request did: the contact found or created, and each action's outcome. */
export type WebhookRequestResult = {
  contact: { id: string; name: string; phone: string; created: boolean; nameUpdated: boolean; emailUpdated: boolean } | null;
  actions: WebhookActionOutcome[];
  /** Values that were ignored (an e-mail that is not one, a name too long). */
  notes: string[];
};

/** A received request as the requests list shows it. */
export type WebhookRequestAnswer = {
  id: string;
  state: WebhookRequestState;
  receivedAt: number;
  processedAt: number | null;
  contentType: string;
  /** Headers worth keeping (content type, user agent, forwarding hints); never cookies or credentials. */
  headers: Record<string, string>;
  /** The body as parsed: JSON as sent; forms as an object of fields (files by name). */
  body: unknown;
  /** Why it failed or was not processed. */
  error: string | null;
  result: WebhookRequestResult | null;
};

/** One page of requests, newest first. */
export type WebhookRequestPage = { results: WebhookRequestAnswer[]; cursor: string | null };
