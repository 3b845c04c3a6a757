/**
 * WhatsApp message templates (issue 10 "Templates"): the answers of
 * `GET /api/connections/{id}/templates` and `POST /api/connections/{id}/templates/sync`, and the
 * template choice a broadcast or a flow's first message carries (`TemplateRef`). Pure zod and
 * types, shared by the worker and the web.
 *
 * Source of the shapes: Meta's `GET /{waba-id}/message_templates` (name, language, category,
 * status, components) and the `type: "template"` send body, /work/shared/reference/wire-formats-wave2.md §4.
 * Only `APPROVED` templates can be sent.
 */
import { z } from "zod";

/** Template categories (Meta). */
export const TEMPLATE_CATEGORIES = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Template review states as Meta reports them; anything else Meta adds is kept as its raw string. */
export const TEMPLATE_STATUSES = ["APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED"] as const;

/** One button of a BUTTONS component (kept as Meta sends it). */
export type TemplateButton = { type: string; text?: string; url?: string; phone_number?: string };

/**
 * One component of a template (HEADER, BODY, FOOTER, BUTTONS), as Meta sends it: `format` of a
 * HEADER (TEXT, IMAGE, VIDEO, DOCUMENT, LOCATION), `text` with `{{1}}` or `{{name}}` placeholders.
 */
export type TemplateComponent = { type: string; format?: string; text?: string; buttons?: TemplateButton[] };

/**
 * One template of the connection's WhatsApp Business Account. `id`: Meta's template id.
 * `bodyParams` / `headerParams`: the placeholders of the BODY / TEXT HEADER in order (`"1"`, `"2"`
 * or named), i.e. how many values a send must carry.
 */
export type TemplateAnswer = {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameterFormat: "POSITIONAL" | "NAMED";
  components: TemplateComponent[];
  headerParams: string[];
  bodyParams: string[];
};

/**
 * GET /api/connections/{id}/templates and POST …/templates/sync → TemplatesAnswer. `syncedAt`: when
 * the list was last read from Meta (ms UTC), null when never (and always for a sandbox connection,
 * which has no templates: `templates: []`).
 */
export type TemplatesAnswer = { templates: TemplateAnswer[]; syncedAt: number | null };

/** GET /api/connections/{id}/templates?status=APPROVED (optional filter by review state). */
export const templateListQuery = z.object({
  status: z.string().trim().toUpperCase().regex(/^[A-Z_]{1,30}$/, { error: "invalid_status" }).optional(),
});

/** A parameter value: text, where `{{key}}` contact variables are filled in (schema/template.ts). */
const paramValue = z.string({ error: "invalid_type" }).max(1024, { error: "too_long" });

/**
 * A template chosen for a send (a broadcast, a flow's first message): the template's `name` and
 * `language` (e.g. `pt_BR`), and the value of each placeholder in order, `{{first_name}}`-style
 * contact variables allowed (rendered per contact before sending).
 */
export const templateRefInput = z.object({
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(512, { error: "too_long" }),
  language: z.string({ error: "required" }).trim().regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, { error: "invalid_language" }),
  headerParams: z.array(paramValue).max(10, { error: "too_many" }).default([]),
  bodyParams: z.array(paramValue).max(60, { error: "too_many" }).default([]),
});
export type TemplateRef = z.infer<typeof templateRefInput>;
export type TemplateRefInput = z.input<typeof templateRefInput>;

/**
 * What a template send needs (the WhatsApp Cloud adapter's `sendTemplate`): the template's name and
 * language and its parameter values in order, already rendered for the contact; `parameterNames`
 * for a NAMED template (the template's `headerParams` / `bodyParams`).
 */
export type TemplateSend = Pick<TemplateRef, "name" | "language" | "headerParams" | "bodyParams"> & {
  parameterNames?: { header: string[]; body: string[] };
  /**
   * Values of the template's buttons (wire-formats-wave2.md §4.2): `index` the button's position
   * (0-based); `subType` `url` (the dynamic URL suffix), `quick_reply` (the payload sent back when
   * pressed) or `copy_code` (the coupon code); `text` the value.
   */
  buttonParams?: TemplateButtonParam[];
};

/** One button's value of a template send (see TemplateSend). */
export type TemplateButtonParam = { index: number; subType: "url" | "quick_reply" | "copy_code"; text: string };

/**
 * The send sub_type of button `index` of a synced template: Meta's button `type` (URL,
 * QUICK_REPLY, COPY_CODE) in its BUTTONS component; `url` when the template is not known here (a
 * URL suffix is the common button variable).
 */
export function buttonSubType(template: Pick<TemplateAnswer, "components"> | null | undefined, index: number): TemplateButtonParam["subType"] {
  const buttons = template?.components.find((c) => c.type.toUpperCase() === "BUTTONS")?.buttons ?? [];
  const type = buttons[index]?.type.toUpperCase();
  return type === "QUICK_REPLY" ? "quick_reply" : type === "COPY_CODE" ? "copy_code" : "url";
}
