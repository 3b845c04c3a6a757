/**
 * The data of every block type of the flow builder (spec §3 Block types, Block categories, Block
 * fields): one zod schema per type, shared by the editor's forms, the API's validation and the
 * engine (`worker/flows/`). Pure zod; no runtime imports.
 *
 * Two levels of checking, so that autosave never loses a half-built block:
 * - the schemas here are structural: they refuse wrong shapes (a number where text goes, an
 *   unknown indicator, duplicate option ids) but accept empty strings and empty option lists, so a
 *   draft saves while the member is still typing;
 * - completeness (an empty message, a missing media URL, a list without responses) is checked by
 *   each block's `check` in the registry (`./registry.ts`) and reported by `validateFlow` with
 *   severity `incomplete`: the editor marks the block and publishing refuses the flow.
 *
 * Conventions: times in seconds in the document (`responseTimeSeconds`, `seconds`), field
 * references by variable key (`{{key}}`, see schema/template.ts), tags by name (a shared flow is
 * cloned into another company by names), option ids short and unique inside their block.
 */
import { z } from "zod";

/** The 22 block types (spec §3 Block types), in the spec's order. */
export const BLOCK_TYPES = [
  "start",
  "action",
  "condition",
  "delay",
  "notification",
  "random",
  "receive",
  "rotary",
  "save",
  "link",
  "list",
  "number",
  "audio",
  "contact",
  "file",
  "image",
  "ptv",
  "text",
  "video",
  "flow_connection",
  "integration",
  "facebook_pixel",
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** The palette's five categories (spec §3 Block categories), in display order. */
export const BLOCK_CATEGORIES = ["content", "buttons", "actions", "integrations", "pixels"] as const;
export type BlockCategory = (typeof BLOCK_CATEGORIES)[number];

const BLOCK_TYPE_SET: ReadonlySet<string> = new Set(BLOCK_TYPES);

/** Narrows a string to a BlockType. */
export function isBlockType(value: string): value is BlockType {
  return BLOCK_TYPE_SET.has(value);
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** Longest message text (WhatsApp's text body limit). */
export const MAX_MESSAGE_LENGTH = 4096;
/** Longest media caption (WhatsApp). */
export const MAX_CAPTION_LENGTH = 1024;
/** Longest response time of a waiting block: 30 days, in seconds. */
export const MAX_RESPONSE_TIME_SECONDS = 30 * 86_400;
/** Longest delay: 7 days, in seconds. */
export const MAX_DELAY_SECONDS = 7 * 86_400;
/** Most retries a waiting block allows before its `invalid` output. */
export const MAX_ERROR_LIMIT = 10;

/** A variable key as in `{{key}}` (schema/template.ts): a lower-case letter, then `[a-z0-9_]`, ≤ 40. */
export const FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/** An option id inside a block (a button, a list response, a random output): `[A-Za-z0-9_-]{1,40}`. */
export const optionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, { error: "invalid_id" });

/** A custom field's key, or "" while the member has not chosen one (incomplete, not invalid). */
const fieldKeyOrEmpty = z.union([z.literal(""), z.string().regex(FIELD_KEY_PATTERN, { error: "invalid_key" })]);

const description = z.string().max(500, { error: "too_long" }).default("");
const message = z.string().max(MAX_MESSAGE_LENGTH, { error: "too_long" }).default("");
const caption = z.string().max(MAX_CAPTION_LENGTH, { error: "too_long" }).default("");

/**
 * A media file as the editor's upload leaves it: `url` is an `r2:<key>` reference (POST
 * /api/flows/{id}/media; the performer turns it into a URL the channel can fetch when sending) or
 * an absolute http(s) URL; "" until uploaded (incomplete). `mime` its MIME type.
 */
export const mediaSchema = z.object({
  url: z.string().max(2048, { error: "too_long" }).default(""),
  mime: z.string().max(255, { error: "too_long" }).default(""),
  fileName: z.string().max(255, { error: "too_long" }).optional(),
});
export type BlockMedia = z.output<typeof mediaSchema>;

/**
 * Fields of the blocks that wait for the contact's answer (receive, list, number, link with reply
 * buttons): spec §3 Block fields "response time, error message, error limit".
 * - `responseTimeSeconds`: how long to wait before the `no_answer` output; null waits forever.
 * - `errorMessage`: sent when the answer is not valid; "" sends nothing and keeps waiting.
 * - `errorLimit`: how many invalid answers are answered with `errorMessage` and retried; the next
 *   invalid answer takes the `invalid` output (0: the first invalid answer does).
 */
const waitFields = {
  responseTimeSeconds: z.number().int().min(1).max(MAX_RESPONSE_TIME_SECONDS).nullable().default(null),
  errorMessage: message,
  errorLimit: z.number().int().min(0).max(MAX_ERROR_LIMIT).default(3),
};

/** The option ids of a list are unique inside their block. */
function uniqueIds<T extends { id: string }>(items: readonly T[], ctx: z.RefinementCtx, path: string): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) ctx.addIssue({ code: "custom", message: "duplicate_id", path: [path, index, "id"] });
    seen.add(item.id);
  });
}

// ---------------------------------------------------------------------------------------------
// Content: text, image, audio, video, file, ptv, contact
// ---------------------------------------------------------------------------------------------

/** Sends `message` (with `{{variables}}`). Output: `next`. */
export const textBlockSchema = z.object({ description, message });
/** Sends an image with an optional caption. Output: `next`. */
export const imageBlockSchema = z.object({ description, media: mediaSchema.default({ url: "", mime: "" }), message: caption });
/** Sends an audio (voice note when the MIME is audio/ogg; no caption on WhatsApp). Output: `next`. */
export const audioBlockSchema = z.object({ description, media: mediaSchema.default({ url: "", mime: "" }) });
/** Sends a video with an optional caption. Output: `next`. */
export const videoBlockSchema = z.object({ description, media: mediaSchema.default({ url: "", mime: "" }), message: caption });
/** Sends a document (`fileName` shown to the contact) with an optional caption. Output: `next`. */
export const fileBlockSchema = z.object({ description, media: mediaSchema.default({ url: "", mime: "" }), message: caption });
/** Sends a video note (round video, "ptv"). Output: `next`. */
export const ptvBlockSchema = z.object({ description, media: mediaSchema.default({ url: "", mime: "" }) });
/** Sends a contact card: spec §3 "Contact block: organization, name, phone". Output: `next`. */
export const contactBlockSchema = z.object({
  description,
  name: z.string().max(120, { error: "too_long" }).default(""),
  phone: z.string().max(32, { error: "too_long" }).default(""),
  organization: z.string().max(120, { error: "too_long" }).default(""),
});

// ---------------------------------------------------------------------------------------------
// Buttons: link, list, number
// ---------------------------------------------------------------------------------------------

/** A reply button: WhatsApp allows 3 per message, titles ≤ 20 characters. */
export const replyButtonSchema = z.object({ id: optionIdSchema, title: z.string().max(20, { error: "too_long" }).default("") });
export const MAX_REPLY_BUTTONS = 3;

/**
 * Spec §3 "Link block: button text and buttons". Two modes, because WhatsApp cannot mix them in
 * one message:
 * - `url`: a call-to-action URL button (`buttonText` ≤ 20 characters opening `url`); output `next`;
 * - `buttons`: up to 3 reply buttons; the run waits for the click: one output per button
 *   (`option:<id>`), `invalid` after the error limit, `no_answer` after the response time.
 */
export const linkBlockSchema = z
  .object({
    description,
    mode: z.enum(["url", "buttons"]).default("url"),
    message,
    buttonText: z.string().max(20, { error: "too_long" }).default(""),
    url: z.string().max(2048, { error: "too_long" }).default(""),
    buttons: z.array(replyButtonSchema).max(MAX_REPLY_BUTTONS, { error: "too_many" }).default([]),
    footer: z.string().max(60, { error: "too_long" }).default(""),
    ...waitFields,
  })
  .superRefine((data, ctx) => uniqueIds(data.buttons, ctx, "buttons"));

/** A response of a list: title ≤ 24, description ≤ 72 characters (WhatsApp). */
export const listResponseSchema = z.object({
  id: optionIdSchema,
  title: z.string().max(24, { error: "too_long" }).default(""),
  description: z.string().max(72, { error: "too_long" }).default(""),
});
export const MAX_LIST_RESPONSES = 10;

/**
 * Spec §3 "List block: button text and responses": an interactive list opened by `buttonText`;
 * waits for the choice: one output per response (`option:<id>`), `invalid`, `no_answer`.
 */
export const listBlockSchema = z
  .object({
    description,
    message,
    buttonText: z.string().max(20, { error: "too_long" }).default(""),
    sectionTitle: z.string().max(24, { error: "too_long" }).default(""),
    responses: z.array(listResponseSchema).max(MAX_LIST_RESPONSES, { error: "too_many" }).default([]),
    ...waitFields,
  })
  .superRefine((data, ctx) => uniqueIds(data.responses, ctx, "responses"));

/** An option of a numbered menu. */
export const numberOptionSchema = z.object({ id: optionIdSchema, title: z.string().max(100, { error: "too_long" }).default("") });
export const MAX_NUMBER_OPTIONS = 10;

/**
 * A numbered menu sent as text ("1. Sales\n2. Support") and answered by the option's digit (or its
 * title); works on every channel. Outputs: one per option (`option:<id>`), `invalid`, `no_answer`.
 */
export const numberBlockSchema = z
  .object({
    description,
    message,
    options: z.array(numberOptionSchema).max(MAX_NUMBER_OPTIONS, { error: "too_many" }).default([]),
    ...waitFields,
  })
  .superRefine((data, ctx) => uniqueIds(data.options, ctx, "options"));

// ---------------------------------------------------------------------------------------------
// Actions: start, action, condition, delay, notification, random, receive, rotary, save, flow connection
// ---------------------------------------------------------------------------------------------

/** Where every run of the flow begins; exactly one per flow. Output: `next`. */
export const startBlockSchema = z.object({ description });

const tagName = z.string().trim().max(60, { error: "too_long" }).default("");

/** One action of an action block. Tags by name; `transfer_ticket` to a member id or to nobody (the queue). */
export const flowActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("add_tag"), tag: tagName }),
  z.object({ kind: z.literal("remove_tag"), tag: tagName }),
  z.object({ kind: z.literal("open_ticket") }),
  z.object({ kind: z.literal("transfer_ticket"), memberId: z.string().max(64).nullable().default(null) }),
  z.object({ kind: z.literal("close_ticket") }),
  z.object({ kind: z.literal("custom_event"), name: z.string().trim().max(100, { error: "too_long" }).default("") }),
  // Enrols the contact in a shipping cycle of the company (issue 10; worker/lib/shipping-cycles.ts).
  z.object({ kind: z.literal("add_to_cycle"), cycleId: z.string().max(64).default("") }),
]);
export type FlowAction = z.output<typeof flowActionSchema>;

/** Adds or removes tags, opens, transfers or closes the ticket, records custom events, adds the contact to a shipping cycle, in order. Output: `next`. */
export const actionBlockSchema = z.object({ description, actions: z.array(flowActionSchema).max(20, { error: "too_many" }).default([]) });

/** `HH:MM`, 24-hour. */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "invalid_time" });

/**
 * One test of a condition block:
 * - `field`: a custom field (or built-in) by key. `equals`/`not_equals` compare case-insensitively
 *   (numerically when both sides are numbers); `contains`/`not_contains` case-insensitively;
 *   `greater`/`less` numerically when both are numbers, else as text (ISO dates order as text);
 *   `empty`/`not_empty` ignore `value`. `value` may use `{{variables}}`.
 * - `tag`: the contact has (`has`) or has not (`has_not`) the tag, by name.
 * - `weekday`: today, in the company's time zone, is one of `days` (0 = Sunday … 6 = Saturday).
 * - `time`: now, in the company's time zone, is in [`from`, `to`); `from` > `to` wraps midnight.
 */
export const conditionRuleSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("field"),
    key: fieldKeyOrEmpty.default(""),
    op: z.enum(["equals", "not_equals", "contains", "not_contains", "greater", "less", "empty", "not_empty"]),
    value: z.string().max(1000, { error: "too_long" }).default(""),
  }),
  z.object({ kind: z.literal("tag"), op: z.enum(["has", "has_not"]), tag: tagName }),
  z.object({ kind: z.literal("weekday"), days: z.array(z.number().int().min(0).max(6)).max(7).default([]) }),
  z.object({ kind: z.literal("time"), from: clockTime, to: clockTime }),
]);
export type ConditionRule = z.output<typeof conditionRuleSchema>;

/** Tests `rules` (`all` must hold, or `any`); an empty list holds. Outputs: `true`, `false`. */
export const conditionBlockSchema = z.object({
  description,
  match: z.enum(["all", "any"]).default("all"),
  rules: z.array(conditionRuleSchema).max(20, { error: "too_many" }).default([]),
});

/**
 * Spec §3 "Delay block: seconds, with a typing or recording-audio indicator": waits `seconds`,
 * showing `indicator` during (at most) the last 25 s of the wait. Output: `next`.
 */
export const delayBlockSchema = z.object({
  description,
  seconds: z.number().int().min(1).max(MAX_DELAY_SECONDS).default(3),
  indicator: z.enum(["none", "typing", "recording"]).default("typing"),
});

/** Alerts chosen members in the app with `message` (variables filled). Output: `next`. */
export const notificationBlockSchema = z.object({
  description,
  memberIds: z.array(z.string().min(1).max(64)).max(50, { error: "too_many" }).default([]),
  message,
});

/** A weighted output of a random block. */
export const randomOutputSchema = z.object({
  id: optionIdSchema,
  label: z.string().max(60, { error: "too_long" }).default(""),
  weight: z.number().int().min(1).max(100).default(1),
});

/** Picks one output at random, in proportion to the weights. Outputs: `option:<id>` each. */
export const randomBlockSchema = z
  .object({ description, outputs: z.array(randomOutputSchema).max(10, { error: "too_many" }).default([]) })
  .superRefine((data, ctx) => uniqueIds(data.outputs, ctx, "outputs"));

/**
 * Waits for the contact's reply. With `fieldKey`, the reply is validated by that field's type
 * (number, date, email, document…) and saved into it; without, any reply is accepted.
 * `message` (optional) is sent first as the question. Outputs: `answered`, `invalid` (after the
 * error limit), `no_answer` (after the response time).
 */
export const receiveBlockSchema = z.object({ description, message, fieldKey: fieldKeyOrEmpty.default(""), ...waitFields });

/** A round-robin output. */
export const rotaryOutputSchema = z.object({ id: optionIdSchema, label: z.string().max(60, { error: "too_long" }).default("") });

/** Hands contacts to its outputs in turn; the counter is kept per block by the performer. Outputs: `option:<id>` each. */
export const rotaryBlockSchema = z
  .object({ description, outputs: z.array(rotaryOutputSchema).max(10, { error: "too_many" }).default([]) })
  .superRefine((data, ctx) => uniqueIds(data.outputs, ctx, "outputs"));

/**
 * Sets a custom field. `mode: "value"`: `value` with `{{variables}}`, normalised for the field's
 * type. `mode: "formula"`: `value` is a formula of schema/formula.ts (`{{price}} * 1.1`). Output: `next`.
 */
export const saveBlockSchema = z.object({
  description,
  fieldKey: fieldKeyOrEmpty.default(""),
  mode: z.enum(["value", "formula"]).default("value"),
  value: z.string().max(1000, { error: "too_long" }).default(""),
});

/** Continues in another flow (its published version, from its start block). No outputs. */
export const flowConnectionBlockSchema = z.object({ description, flowId: z.string().max(64).default("") });

// ---------------------------------------------------------------------------------------------
// Integrations, pixels
// ---------------------------------------------------------------------------------------------

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * An HTTP request to a public http(s) address (variables filled: URI-encoded in the URL,
 * JSON-escaped in a JSON body), 10 s timeout. On a 2xx answer, `save` copies values of the JSON
 * answer, by dot path (`data.items.0.name`), into custom fields. Outputs: `success`, `failure`.
 */
export const integrationBlockSchema = z.object({
  description,
  method: z.enum(HTTP_METHODS).default("GET"),
  url: z.string().max(2048, { error: "too_long" }).default(""),
  headers: z
    .array(z.object({ name: z.string().max(100, { error: "too_long" }), value: z.string().max(2000, { error: "too_long" }) }))
    .max(20, { error: "too_many" })
    .default([]),
  body: z.string().max(10_000, { error: "too_long" }).default(""),
  save: z
    .array(z.object({ path: z.string().max(200, { error: "too_long" }), fieldKey: fieldKeyOrEmpty }))
    .max(20, { error: "too_many" })
    .default([]),
});

/** Meta's standard events; any other name is sent as a custom event. */
export const PIXEL_STANDARD_EVENTS = [
  "Lead",
  "Contact",
  "CompleteRegistration",
  "Schedule",
  "SubmitApplication",
  "Subscribe",
  "StartTrial",
  "InitiateCheckout",
  "AddToCart",
  "AddPaymentInfo",
  "Purchase",
  "ViewContent",
  "Search",
  "Donate",
  "FindLocation",
  "CustomizeProduct",
  "AddToWishlist",
] as const;

/**
 * Sends a Conversions API event for the contact (hashed user data, action source `chat`).
 * `accessToken` is the pixel's Conversions API token: a secret inside the flow document, so sharing
 * and cloning must drop it. `value` in the currency's units (e.g. 19.9), `currency` ISO 4217.
 * Output: `next`.
 */
export const facebookPixelBlockSchema = z.object({
  description,
  pixelId: z.union([z.literal(""), z.string().regex(/^\d{1,32}$/, { error: "invalid_pixel_id" })]).default(""),
  accessToken: z.string().max(512, { error: "too_long" }).default(""),
  eventName: z.string().trim().max(50, { error: "too_long" }).default("Lead"),
  value: z.number().min(0).nullable().default(null),
  currency: z.union([z.literal(""), z.string().regex(/^[A-Z]{3}$/, { error: "invalid_currency" })]).default(""),
  testEventCode: z.string().max(50, { error: "too_long" }).default(""),
});

/** Each block type's data schema. */
export const BLOCK_DATA_SCHEMAS = {
  start: startBlockSchema,
  action: actionBlockSchema,
  condition: conditionBlockSchema,
  delay: delayBlockSchema,
  notification: notificationBlockSchema,
  random: randomBlockSchema,
  receive: receiveBlockSchema,
  rotary: rotaryBlockSchema,
  save: saveBlockSchema,
  link: linkBlockSchema,
  list: listBlockSchema,
  number: numberBlockSchema,
  audio: audioBlockSchema,
  contact: contactBlockSchema,
  file: fileBlockSchema,
  image: imageBlockSchema,
  ptv: ptvBlockSchema,
  text: textBlockSchema,
  video: videoBlockSchema,
  flow_connection: flowConnectionBlockSchema,
  integration: integrationBlockSchema,
  facebook_pixel: facebookPixelBlockSchema,
} satisfies Record<BlockType, z.ZodType>;

/** The parsed data of each block type (defaults applied). */
export type BlockDataMap = { [K in BlockType]: z.output<(typeof BLOCK_DATA_SCHEMAS)[K]> };
/** The data as the editor may send it (fields with defaults optional). */
export type BlockDataInputMap = { [K in BlockType]: z.input<(typeof BLOCK_DATA_SCHEMAS)[K]> };

/** A position on the canvas (px). */
export const positionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

/** A node id: what @xyflow/react saves (the editor uses short random ids). */
export const nodeIdSchema = z.string().min(1, { error: "required" }).max(64, { error: "too_long" });

/** One block of a parsed flow: id, type, position and its typed data. */
export type BlockNode<K extends BlockType = BlockType> = { id: string; type: K; position: { x: number; y: number }; data: BlockDataMap[K] };

function nodeSchema<K extends BlockType, S extends z.ZodType>(type: K, data: S) {
  return z.object({ id: nodeIdSchema, type: z.literal(type), position: positionSchema, data });
}

/** A node of any type, discriminated by `type`, its data parsed by the type's schema. */
export const blockNodeSchema = z.discriminatedUnion("type", [
  nodeSchema("start", startBlockSchema),
  nodeSchema("action", actionBlockSchema),
  nodeSchema("condition", conditionBlockSchema),
  nodeSchema("delay", delayBlockSchema),
  nodeSchema("notification", notificationBlockSchema),
  nodeSchema("random", randomBlockSchema),
  nodeSchema("receive", receiveBlockSchema),
  nodeSchema("rotary", rotaryBlockSchema),
  nodeSchema("save", saveBlockSchema),
  nodeSchema("link", linkBlockSchema),
  nodeSchema("list", listBlockSchema),
  nodeSchema("number", numberBlockSchema),
  nodeSchema("audio", audioBlockSchema),
  nodeSchema("contact", contactBlockSchema),
  nodeSchema("file", fileBlockSchema),
  nodeSchema("image", imageBlockSchema),
  nodeSchema("ptv", ptvBlockSchema),
  nodeSchema("text", textBlockSchema),
  nodeSchema("video", videoBlockSchema),
  nodeSchema("flow_connection", flowConnectionBlockSchema),
  nodeSchema("integration", integrationBlockSchema),
  nodeSchema("facebook_pixel", facebookPixelBlockSchema),
]);

/** A parsed node, narrowed by `type` (`if (node.type === "text") node.data.message`). */
export type AnyBlockNode = z.output<typeof blockNodeSchema>;
