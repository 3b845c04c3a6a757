/** Request bodies of the connection calls (issue "The main job": Connections). */
import { z } from "zod";
import { nameSchema } from "./common";
import { phoneSchema } from "./phone";

const message = z.string().trim().max(4096, { error: "too_long" }).default("");
const optionalPhone = z.preprocess((v) => (v === "" || v === null ? undefined : v), phoneSchema.optional());

/** POST /api/connections */
export const connectionCreateInput = z.discriminatedUnion(
  "channel",
  [
    z.object({
      channel: z.literal("sandbox"),
      name: nameSchema,
      phone: optionalPhone,
      greetingMessage: message,
      farewellMessage: message,
    }),
    z.object({
      channel: z.literal("whatsapp-cloud"),
      name: nameSchema,
      phone: optionalPhone,
      greetingMessage: message,
      farewellMessage: message,
      phoneNumberId: z.string({ error: "required" }).trim().regex(/^\d{5,32}$/, { error: "invalid_phone_number_id" }),
      wabaId: z.string().trim().regex(/^\d{5,32}$/, { error: "invalid_waba_id" }).optional(),
      accessToken: z.string({ error: "required" }).trim().min(20, { error: "invalid_access_token" }).max(2048, { error: "too_long" }),
    }),
    // WhatsApp by QR code through Evolution API (issue 15). `phone` (the business number) also gets
    // a pairing code; `evolutionUrl` + `evolutionApiKey` name this connection's own server (both or
    // neither; else EVOLUTION_API_URL / EVOLUTION_API_KEY).
    z
      .object({
        channel: z.literal("whatsapp-qr"),
        name: nameSchema,
        phone: optionalPhone,
        greetingMessage: message,
        farewellMessage: message,
        evolutionUrl: z.preprocess(
          (v) => (v === "" || v === null ? undefined : v),
          z
            .url({ protocol: /^https?$/, error: "invalid_url" })
            .max(500, { error: "too_long" })
            .optional(),
        ),
        evolutionApiKey: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().min(8, { error: "too_short" }).max(500, { error: "too_long" }).optional()),
      })
      .refine((v) => (v.evolutionUrl === undefined) === (v.evolutionApiKey === undefined), { error: "required", path: ["evolutionApiKey"] }),
  ],
  { error: "invalid_channel" },
);
export type ConnectionCreateInput = z.input<typeof connectionCreateInput>;

/** PUT /api/connections/{id}: every field optional; an access token replaces the stored one. */
export const connectionUpdateInput = z.object({
  name: nameSchema.optional(),
  phone: optionalPhone,
  greetingMessage: z.string().trim().max(4096, { error: "too_long" }).optional(),
  farewellMessage: z.string().trim().max(4096, { error: "too_long" }).optional(),
  wabaId: z.string().trim().regex(/^\d{5,32}$/, { error: "invalid_waba_id" }).optional(),
  accessToken: z.string().trim().min(20, { error: "invalid_access_token" }).max(2048, { error: "too_long" }).optional(),
});

/** POST /api/channels/sandbox/pair: the QR's secret or the typed 8-character code. */
export const sandboxPairInput = z
  .object({
    secret: z.string().trim().min(16).max(128).optional(),
    code: z
      .string()
      .trim()
      .toUpperCase()
      .transform((v) => v.replace(/[^A-Z0-9]/g, ""))
      .pipe(z.string().length(8, { error: "invalid_code" }))
      .optional(),
  })
  .refine((v) => v.secret !== undefined || v.code !== undefined, { error: "secret_or_code_required", path: ["code"] });

const sandboxMedia = z.object({
  mime: z.string().trim().min(3).max(100),
  fileName: z.string().trim().max(200).optional(),
  /** base64 of the file; at most ~16 MB. */
  dataBase64: z.string().max(22_000_000, { error: "too_large" }),
});

/** One event the sandbox phone pushes. `id` is the phone's own message id (the dedupe key). */
export const sandboxEvent = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("message"),
    id: z.string().trim().min(8).max(100),
    from: phoneSchema,
    name: z.string().trim().max(120).optional(),
    timestamp: z.number().int().positive().optional(),
    type: z.enum(["text", "image", "audio", "video", "document", "button_reply", "list_reply"]),
    body: z.string().max(4096).default(""),
    media: sandboxMedia.optional(),
    replyId: z.string().max(256).optional(),
    quotedId: z.string().max(100).optional(),
  }),
  z.object({ kind: z.literal("status"), id: z.string().min(1).max(100), status: z.enum(["delivered", "read"]) }),
  z.object({ kind: z.literal("presence"), from: phoneSchema, state: z.enum(["typing", "recording", "paused"]) }),
  z.object({ kind: z.literal("revoke"), id: z.string().min(1).max(100), from: phoneSchema }),
]);

export const sandboxEventsInput = z.object({ events: z.array(sandboxEvent).min(1).max(50) });
export type SandboxEventInput = z.input<typeof sandboxEvent>;
