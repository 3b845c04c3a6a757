/**
 * Broadcasts (issue 10 "Broadcasts"; spec §2 Broadcasts, §3 Broadcast, §4 Broadcast status, §5
 * scheduledDate, §9 delay presets): the request schemas of every `/api/broadcasts` route and the
 * shapes they answer. Pure zod and types (no drizzle), shared by the worker and the web's form.
 *
 * Reason codes (the values of `error.fields` in a 400): `required`, `too_long`, `invalid_id`,
 * `invalid_delay`, `invalid_scheduled_date`, `invalid_item`, `invalid_condition`, `invalid_value`,
 * `too_many`, `invalid_tab`, `invalid_status`, `invalid_limit`, `invalid_template`.
 * Checks of the routes themselves (400 `validation_failed` naming the field): `flowId:
 * invalid_flow` (not a published flow of the company), `scheduledDate: invalid_scheduled_date`
 * (earlier than now), `connectionId: invalid_id`; 404 `not_found` (another company's broadcast);
 * 409 `conflict` (e.g. pausing a broadcast that is not started).
 */
import { z } from "zod";
import { idSchema } from "./common";

// ---------------------------------------------------------------------------------------------
// Delay presets (spec §9)
// ---------------------------------------------------------------------------------------------

/** The delay presets of spec §9, shortest first. */
export const BROADCAST_DELAYS = ["very_short", "short", "average", "long", "very_long"] as const;
export type BroadcastDelay = (typeof BROADCAST_DELAYS)[number];

/**
 * The random pause between two sends of one connection for each preset, in seconds, inclusive
 * (spec §9: very short 1–5 s, short 5–20 s, average 20–50 s, long 50–120 s, very long 120–300 s).
 */
export const DELAY_RANGES: Readonly<Record<BroadcastDelay, { min: number; max: number }>> = {
  very_short: { min: 1, max: 5 },
  short: { min: 5, max: 20 },
  average: { min: 20, max: 50 },
  long: { min: 50, max: 120 },
  very_long: { min: 120, max: 300 },
};

// ---------------------------------------------------------------------------------------------
// Status (spec §4)
// ---------------------------------------------------------------------------------------------

/**
 * A broadcast's status (spec §4): `waiting` (created, not started: scheduled for `scheduledDate`,
 * or waiting for a start when it has none), `started`, `paused`; then, in the history tab, `done`
 * (every recipient sent or rejected) or `cancelled` (deleted while not done).
 */
export const BROADCAST_STATUSES = ["waiting", "started", "paused", "done", "cancelled"] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** Statuses listed under the current tab; the rest are history. */
export const CURRENT_BROADCAST_STATUSES: readonly BroadcastStatus[] = ["waiting", "started", "paused"];

/**
 * A recipient's state: `pending` (not yet reached), `sending` (committed, send under way; listed as
 * pending), `sent`, `rejected` (with a reason).
 */
export const RECIPIENT_STATUSES = ["pending", "sending", "sent", "rejected"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/**
 * Why a recipient was rejected:
 * - `opted_out`: the contact answered a stop word (`contacts.opted_out_at`);
 * - `outside_window`: WhatsApp Cloud API, no customer message in the last 24 h and the broadcast
 *   has no approved template (only a template may start a conversation);
 * - `no_identity`: the contact has no phone / identity on the connection's channel;
 * - `daily_limit`: the messaging tier's daily count of unique users outside a window is used up;
 * - `contact_deleted`: the contact was deleted before its turn;
 * - `send_failed`: the provider refused the message (the detail holds its code);
 * - `flow_failed`: the broadcast's flow could not be started for the contact.
 */
export const REJECT_REASONS = ["opted_out", "outside_window", "no_identity", "daily_limit", "contact_deleted", "send_failed", "flow_failed"] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

// ---------------------------------------------------------------------------------------------
// Audience filters
// ---------------------------------------------------------------------------------------------

/** What a filter looks at: a tag, a custom field (or built-in), the CRM column, the creation date, the channel. */
export const FILTER_ITEMS = ["tag", "custom_field", "crm_column", "created_date", "channel"] as const;
export type FilterItem = (typeof FILTER_ITEMS)[number];

/** Every condition a filter may use (which fit which item: FILTER_CONDITIONS). */
export const CONDITIONS = ["is", "is_not", "contains", "greater", "less", "before", "after", "has_tag", "has_not_tag"] as const;
export type FilterCondition = (typeof CONDITIONS)[number];

/**
 * The conditions fitting each item. For `custom_field` the field's type narrows them further
 * (CUSTOM_FIELD_CONDITIONS); the worker answers 400 `invalid_condition` for a misfit.
 */
export const FILTER_CONDITIONS: Readonly<Record<FilterItem, readonly FilterCondition[]>> = {
  tag: ["has_tag", "has_not_tag"],
  custom_field: ["is", "is_not", "contains", "greater", "less", "before", "after"],
  crm_column: ["is", "is_not"],
  created_date: ["before", "after"],
  channel: ["is", "is_not"],
};

/** The conditions fitting a custom field of each value type (schema/enums.ts CUSTOM_FIELD_TYPES). */
export const CUSTOM_FIELD_CONDITIONS: Readonly<Record<string, readonly FilterCondition[]>> = {
  text: ["is", "is_not", "contains"],
  name: ["is", "is_not", "contains"],
  email: ["is", "is_not", "contains"],
  document: ["is", "is_not", "contains"],
  number: ["is", "is_not", "greater", "less"],
  date: ["is", "before", "after"],
  datetime: ["before", "after"],
};

/** The channels a `channel` filter may name (schema/connections.ts CHANNELS). */
export const FILTER_CHANNELS = ["sandbox", "whatsapp-cloud", "instagram", "whatsapp-qr"] as const;

/** Most filters one broadcast may combine (all must match: AND). */
export const MAX_BROADCAST_FILTERS = 20;

/**
 * One audience filter `{item, condition, tag?, fieldId?, value?}`; every filter must match (AND):
 * - `tag` + `has_tag|has_not_tag`: `tag` is the tag id;
 * - `custom_field` + a condition fitting the field's type: `fieldId` is the custom field id (or
 *   `default:<key>` for a built-in such as `default:email`), `value` the text compared (normalised
 *   by the field's type: a number for greater/less, `YYYY-MM-DD` for dates);
 * - `crm_column` + `is|is_not`: `value` is the CRM column id;
 * - `created_date` + `before|after`: `value` is `YYYY-MM-DD` (read in the company's time zone) or
 *   an ISO 8601 instant;
 * - `channel` + `is|is_not`: `value` is a channel (`sandbox`, `whatsapp-cloud`, `instagram`): the
 *   contact has (or has not) an identity on it.
 */
export const broadcastFilterSchema = z
  .object({
    item: z.enum(FILTER_ITEMS, { error: "invalid_item" }),
    condition: z.enum(CONDITIONS, { error: "invalid_condition" }),
    tag: idSchema.optional(),
    fieldId: z
      .string()
      .max(60, { error: "too_long" })
      .refine((v) => idSchema.safeParse(v).success || /^default:[a-z][a-z0-9_]{0,39}$/.test(v), { error: "invalid_id" })
      .optional(),
    value: z.string().trim().max(200, { error: "too_long" }).optional(),
  })
  .superRefine((f, ctx) => {
    if (!FILTER_CONDITIONS[f.item].includes(f.condition)) {
      ctx.addIssue({ code: "custom", message: "invalid_condition", path: ["condition"] });
      return;
    }
    const needValue = (check: (v: string) => boolean = () => true) => {
      if (!f.value) ctx.addIssue({ code: "custom", message: "required", path: ["value"] });
      else if (!check(f.value)) ctx.addIssue({ code: "custom", message: "invalid_value", path: ["value"] });
    };
    switch (f.item) {
      case "tag":
        if (!f.tag) ctx.addIssue({ code: "custom", message: "required", path: ["tag"] });
        break;
      case "custom_field":
        if (!f.fieldId) ctx.addIssue({ code: "custom", message: "required", path: ["fieldId"] });
        needValue();
        break;
      case "crm_column":
        needValue((v) => idSchema.safeParse(v).success);
        break;
      case "created_date":
        needValue((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) ? Number.isFinite(Date.parse(`${v}T00:00:00Z`)) : Number.isFinite(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v));
        break;
      case "channel":
        needValue((v) => (FILTER_CHANNELS as readonly string[]).includes(v));
        break;
    }
  });
export type BroadcastFilter = z.infer<typeof broadcastFilterSchema>;

const filtersSchema = z.array(broadcastFilterSchema, { error: "required" }).max(MAX_BROADCAST_FILTERS, { error: "too_many" });

// ---------------------------------------------------------------------------------------------
// Template (WhatsApp Cloud API: the only way to start a conversation outside the 24 h window)
// ---------------------------------------------------------------------------------------------

/** The contact columns a template variable may take its value from. */
export const CONTACT_VARIABLE_FIELDS = ["full_name", "first_name", "last_name", "phone", "email", "document"] as const;

/**
 * Where a template variable's value comes from: a contact field, a custom field (by id), or fixed
 * text.
 */
export const templateVariableSource = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("contact"), field: z.enum(CONTACT_VARIABLE_FIELDS, { error: "invalid_value" }) }),
    z.object({ type: z.literal("custom_field"), fieldId: idSchema }),
    z.object({ type: z.literal("text"), text: z.string().trim().max(1000, { error: "too_long" }) }),
  ],
  { error: "invalid_value" },
);
export type TemplateVariableSource = z.infer<typeof templateVariableSource>;

/** Components of a template that carry numbered variables (`{{1}}`, `{{2}}`, …). */
export const TEMPLATE_COMPONENTS = ["header", "body", "button"] as const;

/**
 * An approved WhatsApp message template sent as each recipient's first message:
 * `{name, language, variables: [{component, index, source}]}`; `index` is the variable's number
 * (1-based) in that component (for a `button`, the button's position is `buttonIndex`, 0-based).
 */
export const broadcastTemplateSchema = z.object({
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(512, { error: "too_long" }).regex(/^[a-z0-9_]+$/, { error: "invalid_template" }),
  language: z.string({ error: "required" }).trim().min(2, { error: "required" }).max(15, { error: "too_long" }).regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, { error: "invalid_template" }),
  variables: z
    .array(
      z.object({
        component: z.enum(TEMPLATE_COMPONENTS, { error: "invalid_template" }),
        index: z.number({ error: "invalid_value" }).int({ error: "invalid_value" }).min(1, { error: "invalid_value" }).max(100, { error: "invalid_value" }),
        buttonIndex: z.number({ error: "invalid_value" }).int({ error: "invalid_value" }).min(0, { error: "invalid_value" }).max(9, { error: "invalid_value" }).optional(),
        source: templateVariableSource,
      }),
    )
    .max(60, { error: "too_many" })
    .default([]),
});
export type BroadcastTemplate = z.infer<typeof broadcastTemplateSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const broadcastName = z.string({ error: "required" }).trim().min(1, { error: "required" }).max(100, { error: "too_long" });

/**
 * An ISO 8601 instant with a zone (`2026-12-01T12:00:00Z`, `…-03:00`) → ms UTC. Whether it is
 * earlier than now is the route's check (400 `invalid_scheduled_date`), since "now" is the server's.
 */
export const scheduledDateSchema = z
  .string({ error: "invalid_scheduled_date" })
  .trim()
  .max(40, { error: "invalid_scheduled_date" })
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, { error: "invalid_scheduled_date" })
  .transform((v, ctx) => {
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: "custom", message: "invalid_scheduled_date" });
      return z.NEVER;
    }
    return ms;
  });

/**
 * POST /api/broadcasts: `{name, connectionId, flowId, delay, scheduledDate?, filters, template?}`.
 * `scheduledDate` (ISO 8601 with a zone; null or absent: no schedule, started by
 * `POST /{id}/start`) becomes ms UTC. `filters` may be empty (every contact of the company).
 */
export const broadcastInput = z.object({
  name: broadcastName,
  connectionId: idSchema,
  flowId: idSchema,
  delay: z.enum(BROADCAST_DELAYS, { error: "invalid_delay" }),
  scheduledDate: scheduledDateSchema.nullable().optional(),
  filters: filtersSchema.default([]),
  template: broadcastTemplateSchema.nullable().optional(),
});
export type BroadcastInput = z.infer<typeof broadcastInput>;

/**
 * PUT /api/broadcasts/{id}: the same fields, each optional (an absent key keeps its value;
 * `scheduledDate: null` and `template: null` clear). While `waiting` every field may change; once
 * started (or paused) only `name` and `delay` (409 `conflict` otherwise); never in history.
 */
export const broadcastUpdate = broadcastInput.partial().extend({ filters: filtersSchema.optional() });
export type BroadcastUpdate = z.infer<typeof broadcastUpdate>;

const limitSchema = (max: number, fallback: number) =>
  z.coerce.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(max, { error: "invalid_limit" }).default(fallback);

/** GET /api/broadcasts?tab=current|history&cursor=&limit= (limit 1..100, default 30; newest first). */
export const broadcastListQuery = z.object({
  tab: z.enum(["current", "history"], { error: "invalid_tab" }).default("current"),
  cursor: z.string().max(200).optional(),
  limit: limitSchema(100, 30),
});

/**
 * GET /api/broadcasts/{id}/recipients?status=pending|sent|rejected&cursor=&limit= (limit 1..200,
 * default 50; absent status: all). `pending` includes `sending`.
 */
export const recipientListQuery = z.object({
  status: z.enum(["pending", "sent", "rejected"], { error: "invalid_status" }).optional(),
  cursor: z.string().max(200).optional(),
  limit: limitSchema(200, 50),
});

/**
 * POST /api/broadcasts/audience `{filters, connectionId}` → AudienceAnswer: how many contacts of
 * the company the filters match now (the form's live recipient count). `connectionId` is checked
 * to be the company's; the count is of matching contacts, before opt-out and window rejections.
 */
export const audienceInput = z.object({
  connectionId: idSchema,
  filters: filtersSchema.default([]),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** Progress counts of a broadcast. `total` is null until the recipients are listed at start. */
export type BroadcastCounts = { total: number | null; sent: number; rejected: number; pending: number };

/** A row of GET /api/broadcasts (`Page<BroadcastListItem>`: `{results, cursor, total}`). Times in ms UTC. */
export type BroadcastListItem = {
  id: string;
  name: string;
  status: BroadcastStatus;
  delay: BroadcastDelay;
  connection: { id: string; name: string; channel: string };
  flow: { id: string; name: string };
  scheduledDate: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  counts: BroadcastCounts;
  createdAt: number;
  updatedAt: number;
};

/** GET /api/broadcasts/{id} (also the answer of POST, PUT and the start/pause/resume actions). */
export type BroadcastDetail = BroadcastListItem & {
  filters: BroadcastFilter[];
  template: BroadcastTemplate | null;
};

/** A row of GET /api/broadcasts/{id}/recipients (`Page<BroadcastRecipientRow>`). */
export type BroadcastRecipientRow = {
  contactId: string;
  name: string;
  phone: string | null;
  /** `sending` is answered as `pending`. */
  status: "pending" | "sent" | "rejected";
  reason: RejectReason | null;
  /** Longer detail of a rejection (the provider's error code and message), or null. */
  detail: string | null;
  /** When it was sent or rejected, ms UTC; null while pending. */
  doneAt: number | null;
};

/** POST /api/broadcasts/audience. */
export type AudienceAnswer = { count: number };

/** The hub event carrying a broadcast's live counts (schema/realtime.ts `broadcast.updated`). */
export type BroadcastProgress = { id: string; status: BroadcastStatus; counts: BroadcastCounts };
