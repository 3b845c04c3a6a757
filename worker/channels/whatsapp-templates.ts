/**
 * WhatsApp message templates over the Graph API (issue 10 "Templates"; shapes in
 * /work/shared/reference/wire-formats-wave2.md §4.1–4.2):
 * - `fetchTemplates`: `GET {graphUrl}/{wabaId}/message_templates?fields=…&limit=100`, following
 *   `paging.cursors.after` while `paging.next` is present (at most MAX_TEMPLATE_PAGES pages);
 * - `templateMessageBody`: the `type: "template"` part of a send to `POST /{phoneNumberId}/messages`,
 *   with the header and body parameters in order (`parameter_name` added for NAMED templates);
 * - `resolveTemplateSend`: a chosen template (`TemplateRef`) filled in for one contact.
 * Used by the WhatsApp Cloud adapter's `listTemplates` / `sendTemplate` (whatsapp-cloud.ts).
 */
import { z } from "zod";
import { renderTemplate } from "../../schema/template";
import type { TemplateAnswer, TemplateComponent, TemplateRef, TemplateSend } from "../../schema/validation/templates";
import { AppError } from "../lib/errors";

/** Pages of 100 read at most (10,000 templates; a WABA holds a few hundred at most). */
export const MAX_TEMPLATE_PAGES = 100;
/** How long one page may take before Meta counts as unavailable (ms). */
const PAGE_TIMEOUT_MS = 15_000;

const componentSchema = z.object({
  type: z.string(),
  format: z.string().optional(),
  text: z.string().optional(),
  buttons: z.array(z.object({ type: z.string(), text: z.string().optional(), url: z.string().optional(), phone_number: z.string().optional() })).optional(),
});

const templateSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().min(1),
  language: z.string().min(1),
  category: z.string().default(""),
  status: z.string().default(""),
  parameter_format: z.string().optional(),
  components: z.array(componentSchema).default([]),
});

const pageSchema = z.object({
  data: z.array(z.unknown()),
  paging: z.object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() }).optional(),
});

const errorSchema = z.object({ error: z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }) });

/** The placeholders of `text` in order of appearance, each once: `{{1}}` → "1", `{{name}}` → "name". */
export function placeholders(text: string | undefined): string[] {
  const keys: string[] = [];
  for (const match of (text ?? "").matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)) {
    const key = match[1];
    if (key && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** One template of Meta's answer as the API answers it, or null when it lacks a name or language. */
export function parseTemplate(raw: unknown): TemplateAnswer | null {
  const parsed = templateSchema.safeParse(raw);
  if (!parsed.success) return null;
  const t = parsed.data;
  const components: TemplateComponent[] = t.components.map((c) => ({
    type: c.type.toUpperCase(),
    ...(c.format ? { format: c.format.toUpperCase() } : {}),
    ...(c.text !== undefined ? { text: c.text } : {}),
    ...(c.buttons ? { buttons: c.buttons } : {}),
  }));
  const header = components.find((c) => c.type === "HEADER");
  const body = components.find((c) => c.type === "BODY");
  return {
    id: t.id,
    name: t.name,
    language: t.language,
    category: t.category.toUpperCase(),
    status: t.status.toUpperCase(),
    parameterFormat: t.parameter_format?.toUpperCase() === "NAMED" ? "NAMED" : "POSITIONAL",
    components,
    headerParams: header && (header.format ?? "TEXT") === "TEXT" ? placeholders(header.text) : [],
    bodyParams: placeholders(body?.text),
  };
}

/**
 * Every template of the WhatsApp Business Account `wabaId`, by name then language. Errors
 * (AppError): 400 `validation_failed` `accessToken: access_token_rejected` when Meta refuses the
 * token (code 190, HTTP 401/403); 400 `wabaId: waba_not_found` for an unknown account (code 100);
 * 502 `provider_unavailable` on a network failure, a timeout, a 5xx or 429.
 */
export async function fetchTemplates(options: { graphUrl: string; fetch?: typeof fetch }, wabaId: string, accessToken: string): Promise<TemplateAnswer[]> {
  const doFetch = options.fetch ?? fetch;
  const base = options.graphUrl.replace(/\/+$/, "");
  const fields = "id,name,language,category,status,parameter_format,components";
  const templates: TemplateAnswer[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
    const url = `${base}/${encodeURIComponent(wabaId)}/message_templates?fields=${fields}&limit=100${after ? `&after=${encodeURIComponent(after)}` : ""}`;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(PAGE_TIMEOUT_MS) });
      text = await res.text();
    } catch {
      throw unavailable();
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    if (!res.ok) {
      const failure = errorSchema.safeParse(json);
      const code = failure.success ? String(failure.data.error.code ?? "") : "";
      if (res.status >= 500 || res.status === 429) throw unavailable();
      if (code === "190" || res.status === 401 || res.status === 403) {
        throw new AppError("validation_failed", "Meta did not accept this connection's access token.", { accessToken: "access_token_rejected" });
      }
      throw new AppError("validation_failed", "Meta does not know this WhatsApp Business Account, or the token may not read it.", { wabaId: "waba_not_found" });
    }
    const parsed = pageSchema.safeParse(json);
    if (!parsed.success) throw unavailable();
    for (const raw of parsed.data.data) {
      const template = parseTemplate(raw);
      if (template) templates.push(template);
    }
    after = parsed.data.paging?.cursors?.after;
    if (!parsed.data.paging?.next || !after || parsed.data.data.length === 0) break;
  }
  templates.sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
  return templates;
}

const unavailable = () => new AppError("provider_unavailable", "Meta's Graph API could not be reached. Try again in a moment.");

/**
 * The `type: "template"` body of a Cloud API send (wire-formats-wave2.md §4.2): header and body
 * parameters in order, then one `button` component per button value (`sub_type`, `index` as a
 * string, a `text`, `payload` or `coupon_code` parameter).
 */
export function templateMessageBody(template: TemplateSend): Record<string, unknown> {
  const parameters = (values: string[], names: string[] | undefined) =>
    values.map((text, i) => ({ type: "text", text, ...(names?.[i] ? { parameter_name: names[i] } : {}) }));
  const components: Record<string, unknown>[] = [];
  if (template.headerParams.length) components.push({ type: "header", parameters: parameters(template.headerParams, template.parameterNames?.header) });
  if (template.bodyParams.length) components.push({ type: "body", parameters: parameters(template.bodyParams, template.parameterNames?.body) });
  for (const button of [...(template.buttonParams ?? [])].sort((a, b) => a.index - b.index)) {
    const parameter =
      button.subType === "quick_reply"
        ? { type: "payload", payload: button.text }
        : button.subType === "copy_code"
          ? { type: "coupon_code", coupon_code: button.text }
          : { type: "text", text: button.text };
    components.push({ type: "button", sub_type: button.subType, index: String(button.index), parameters: [parameter] });
  }
  return { type: "template", template: { name: template.name, language: { code: template.language }, ...(components.length ? { components } : {}) } };
}

/**
 * The send of template `ref` for one contact: each parameter's `{{key}}` contact variables filled
 * in from `vars` (schema/template.ts renderTemplate; a missing value renders empty), and, for a
 * NAMED template (`template`, as synced), the parameter names. Meta refuses an empty parameter, so a
 * value that renders empty is sent as "-".
 */
export function resolveTemplateSend(ref: TemplateRef, template: Pick<TemplateAnswer, "parameterFormat" | "headerParams" | "bodyParams"> | null, vars: ReadonlyMap<string, string | null>): TemplateSend {
  const fill = (values: string[]) => values.map((value) => renderTemplate(value, vars).trim() || "-");
  return {
    name: ref.name,
    language: ref.language,
    headerParams: fill(ref.headerParams),
    bodyParams: fill(ref.bodyParams),
    ...(template?.parameterFormat === "NAMED" ? { parameterNames: { header: template.headerParams, body: template.bodyParams } } : {}),
  };
}
