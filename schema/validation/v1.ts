/**
 * The public API `/api/v1` (issue 11 "Public API and its documentation"): the zod schemas its routes
 * validate with and answer in, which are also the source of its OpenAPI 3.1 document
 * (`GET /api/v1/openapi.json`, built by @hono/zod-openapi from these same schemas). Field rules are
 * the app's own (phone, name, e-mail, document, ids from ./common, ./phone and ./contacts), so the
 * API accepts exactly what the screens accept.
 *
 * Reason codes in `error.fields` besides those of ./contacts: `phone_or_email_required` (contact
 * search without either), `text_required`, `media_required` (messages), `template_unsupported`
 * (type: a connection that cannot send templates), `template_refused` (template: WhatsApp refused it),
 * `invalid_url`, `private_address`, `local_name`, `not_http`, `credentials`, `too_large`,
 * `download_failed` (mediaUrl).
 *
 * Pure zod: OpenAPI metadata is zod's own `.meta()` (ids become component names), which
 * @hono/zod-openapi reads.
 */
import { z } from "zod";
import { emailSchema, idSchema } from "./common";
import { contactInput, contactNameSchema, contactUpdate } from "./contacts";
import { phoneSchema } from "./phone";
import { templateRefInput } from "./templates";

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** The one error envelope of every failure (worker/lib/errors.ts). */
export const v1Error = z
  .object({
    error: z.object({
      code: z.string().meta({ example: "validation_failed" }),
      message: z.string().meta({ example: "Invalid input: phone." }),
      fields: z.record(z.string(), z.string()).optional().meta({ example: { phone: "invalid_phone" } }),
    }),
  })
  .meta({ id: "Error" });

export const v1IdParam = z.object({ id: idSchema.meta({ example: "019a2f3e-8b1c-7d4e-9f00-1a2b3c4d5e6f" }) });

export const v1TagParam = z.object({
  id: idSchema,
  tagId: idSchema,
});

const phone = phoneSchema.meta({ description: "International form (E.164) or Brazilian national form; stored as E.164.", example: "+5511912345678" });

// ---------------------------------------------------------------------------------------------
// Contacts
// ---------------------------------------------------------------------------------------------

/** A contact as the public API answers it. Times in ms UTC. */
export const v1Contact = z
  .object({
    id: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    document: z.string().nullable(),
    tags: z.array(z.object({ id: z.string(), name: z.string(), color: z.string() })),
    fields: z.record(z.string(), z.string()).meta({ description: "Custom field values by field id." }),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: "Contact" });
export type V1Contact = z.infer<typeof v1Contact>;

/** POST /contacts: the app's contact input (name, phone, email?, document?, tags? ids, fields? by id). */
export const v1ContactCreate = contactInput.meta({ id: "ContactCreate" });
/** PATCH /contacts/{id}: every field optional; an absent key keeps its value; `tags` replaces the contact's tags. */
export const v1ContactUpdate = contactUpdate.meta({ id: "ContactUpdate" });

/** GET /contacts?phone=&email=: contacts with that phone or e-mail (at least one required). */
export const v1ContactSearch = z
  .object({
    phone: phoneSchema.optional().meta({ example: "+5511912345678" }),
    email: emailSchema.optional().meta({ example: "maria@example.com" }),
  })
  .refine((q) => q.phone !== undefined || q.email !== undefined, { error: "phone_or_email_required", path: ["phone"] });

export const v1ContactList = z.object({ results: z.array(v1Contact) }).meta({ id: "ContactList" });

/** POST /contacts/{id}/tags: tags to add (ids of the company's tags). */
export const v1TagsInput = z
  .object({ tagIds: z.array(idSchema, { error: "required" }).min(1, { error: "required" }).max(50, { error: "too_many" }) })
  .meta({ id: "TagsInput" });

/** PUT /contacts/{id}/fields: values by custom field id; null clears one. Normalised by each field's type. */
export const v1FieldsInput = z
  .object({
    fields: z
      .record(idSchema, z.union([z.string().max(1000, { error: "too_long" }), z.number(), z.null()]), { error: "required" })
      .refine((f) => Object.keys(f).length > 0 && Object.keys(f).length <= 100, { error: "too_many" }),
  })
  .meta({ id: "FieldsInput" });

/** POST /contacts/{id}/flows: the published flow to start, on which connection. */
export const v1StartFlowInput = z.object({ flowId: idSchema, connectionId: idSchema }).meta({ id: "StartFlowInput" });
export const v1StartFlowAnswer = z.object({ runId: z.string(), ticketId: z.string() }).meta({ id: "FlowRunStarted" });

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

const recipient = {
  connectionId: idSchema.meta({ description: "The connection (WhatsApp number, sandbox …) that sends." }),
  phone,
  name: contactNameSchema.optional().meta({ description: "The contact's name when it is created (default: the phone)." }),
};

export const MEDIA_TYPES = ["image", "audio", "video", "document"] as const;

/**
 * POST /messages (JSON): text, media fetched from a public URL, or an approved WhatsApp template
 * (schema/validation/templates.ts `templateRefInput`, the broadcasts' template reference).
 * The contact is found by phone (created when missing); the message goes to its open ticket on the
 * connection (a new pending ticket otherwise).
 */
export const v1MessageJson = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("text"), ...recipient, text: z.string({ error: "text_required" }).trim().min(1, { error: "text_required" }).max(4096, { error: "too_long" }) }),
    z.object({
      type: z.enum(MEDIA_TYPES),
      ...recipient,
      mediaUrl: z.string({ error: "media_required" }).max(2048, { error: "too_long" }).meta({ description: "A public http(s) URL; fetched once (≤ 25 MiB) and typed by its bytes.", format: "uri" }),
      caption: z.string().max(1024, { error: "too_long" }).optional(),
      fileName: z.string().max(200, { error: "too_long" }).optional(),
    }),
    z.object({
      type: z.literal("template"),
      ...recipient,
      template: templateRefInput.meta({
        description: "An approved WhatsApp template of the connection (Cloud API only): its name, language (e.g. pt_BR) and the values of its header and body placeholders, in order.",
      }),
    }),
  ])
  .meta({ id: "MessageInput" });
export type V1MessageJson = z.infer<typeof v1MessageJson>;

/** POST /messages (multipart/form-data): an uploaded file (≤ 100 MB), typed by its bytes. */
export const v1MessageForm = z
  .object({
    connectionId: idSchema,
    phone,
    name: contactNameSchema.optional(),
    file: z.instanceof(File, { error: "file_required" }).meta({ type: "string", format: "binary" }),
    type: z.enum(MEDIA_TYPES, { error: "invalid_type" }).optional(),
    caption: z.string().max(1024, { error: "too_long" }).optional(),
  })
  .meta({ id: "MessageUpload" });

/** A message the API stored and queued for sending. */
export const v1MessageAnswer = z
  .object({
    id: z.string(),
    ticketId: z.string(),
    contactId: z.string(),
    type: z.string(),
    status: z.string().meta({ description: "`pending` until the provider accepts it, then `sent`, `delivered`, `read` or `failed`." }),
    createdAt: z.number().int(),
  })
  .meta({ id: "Message" });

// ---------------------------------------------------------------------------------------------
// Tickets
// ---------------------------------------------------------------------------------------------

export const v1TicketQuery = z.object({
  status: z.enum(["all", "open", "pending", "closed"], { error: "invalid_status" }).default("all"),
  cursor: z.string().max(200, { error: "invalid_cursor" }).optional().meta({ description: "The `cursor` of the previous page." }),
  limit: z.coerce.number().int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(100, { error: "invalid_limit" }).default(30),
});

export const v1Ticket = z
  .object({
    id: z.string(),
    status: z.enum(["pending", "open", "closed"]),
    contact: z.object({ id: z.string(), name: z.string(), phone: z.string().nullable() }),
    connectionId: z.string(),
    assignedMemberId: z.string().nullable(),
    lastMessageAt: z.number().int(),
    lastMessagePreview: z.string(),
    createdAt: z.number().int(),
    closedAt: z.number().int().nullable(),
  })
  .meta({ id: "Ticket" });
export type V1Ticket = z.infer<typeof v1Ticket>;

export const v1TicketPage = z
  .object({ results: z.array(v1Ticket), cursor: z.string().nullable().meta({ description: "The next page's cursor, or null on the last page." }) })
  .meta({ id: "TicketPage" });
