/**
 * Adapter for Cloudflare's custom hostnames API (Cloudflare for SaaS; issue 14 "Resolving the
 * franchise"). A franchise's hostname is registered on our zone so Cloudflare serves it with a
 * certificate and routes it to this worker:
 *
 * - `POST {CF_API_URL}/zones/{CF_ZONE_ID}/custom_hostnames` `{hostname, ssl: {method, type: "dv"}}`;
 * - `GET …/custom_hostnames/{id}`: the status (`pending` → `active`), `ssl.status`, the ownership
 *   verification record (`ownership_verification` {type: "txt", name, value}) and the certificate
 *   validation records (`ssl.validation_records[]` {txt_name, txt_value} or {http_url, http_body});
 * - `DELETE …/custom_hostnames/{id}`.
 * Every answer is Cloudflare's envelope `{success, errors[], messages[], result}`, validated with
 * zod; `success: false` or a non-2xx answer throws CustomHostnameError with Cloudflare's first
 * error. Auth: `Authorization: Bearer {CF_API_TOKEN}`. `CF_API_URL` defaults to
 * https://api.cloudflare.com/client/v4; tests and `npm start` point it at standins/cloudflare.ts.
 *
 * Locally franchises are tried on `*.localhost` hostnames (Chromium and curl resolve them to
 * loopback): those are never registered (`isLocalHostname`), and get status "local".
 */
import { z } from "zod";
import type { VerificationRecord } from "../../schema/franchises";
import type { AppEnv } from "../env";

/** Default API base when CF_API_URL is unset. */
export const CF_API_DEFAULT = "https://api.cloudflare.com/client/v4";

const cfError = z.object({ code: z.number().optional(), message: z.string().optional() }).passthrough();

const validationRecord = z
  .object({
    txt_name: z.string().optional(),
    txt_value: z.string().optional(),
    http_url: z.string().optional(),
    http_body: z.string().optional(),
    cname: z.string().optional(),
    cname_target: z.string().optional(),
    status: z.string().optional(),
  })
  .passthrough();

/** The part of a custom hostname object the product reads. */
export const customHostnameSchema = z
  .object({
    id: z.string(),
    hostname: z.string(),
    status: z.string().optional().default("pending"),
    ssl: z
      .object({
        status: z.string().optional(),
        method: z.string().optional(),
        validation_records: z.array(validationRecord).optional(),
        validation_errors: z.array(z.object({ message: z.string().optional() }).passthrough()).optional(),
      })
      .passthrough()
      .nullish(),
    ownership_verification: z.object({ type: z.string().optional(), name: z.string().optional(), value: z.string().optional() }).passthrough().nullish(),
    ownership_verification_http: z.object({ http_url: z.string().optional(), http_body: z.string().optional() }).passthrough().nullish(),
    verification_errors: z.array(z.string()).optional(),
  })
  .passthrough();

export type CustomHostname = z.infer<typeof customHostnameSchema>;

const envelope = <T extends z.ZodType>(result: T) =>
  z.object({ success: z.boolean(), errors: z.array(cfError).default([]), messages: z.array(z.unknown()).optional(), result: result.nullable().optional() });

/** A failure of the custom hostnames API: a refusal (`status` < 500) or unavailability. */
export class CustomHostnameError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
  ) {
    super(message);
    this.name = "CustomHostnameError";
  }
}

/** Settings of the adapter (from the env). */
export type CustomHostnamesConfig = { apiUrl: string; token: string; zoneId: string };

/** The adapter's configuration, or null when CF_API_TOKEN or CF_ZONE_ID is unset. */
export function customHostnamesConfig(env: Pick<AppEnv, "CF_API_URL" | "CF_API_TOKEN" | "CF_ZONE_ID">): CustomHostnamesConfig | null {
  if (!env.CF_API_TOKEN || !env.CF_ZONE_ID) return null;
  return { apiUrl: (env.CF_API_URL || CF_API_DEFAULT).replace(/\/+$/, ""), token: env.CF_API_TOKEN, zoneId: env.CF_ZONE_ID };
}

/** Whether `hostname` is a local one (`localhost` or under `.localhost`): never registered. */
export function isLocalHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost");
}

async function call<T extends z.ZodType>(config: CustomHostnamesConfig, method: string, path: string, schema: T, body?: unknown): Promise<z.infer<T> | null> {
  let res: Response;
  try {
    res = await fetch(`${config.apiUrl}/zones/${encodeURIComponent(config.zoneId)}${path}`, {
      method,
      headers: { Authorization: `Bearer ${config.token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new CustomHostnameError(`Cloudflare could not be reached: ${error instanceof Error ? error.message : String(error)}`, 503);
  }
  const raw = await res.json().catch(() => null);
  const parsed = envelope(schema).safeParse(raw);
  if (!parsed.success) throw new CustomHostnameError(`Cloudflare answered ${res.status} with an unexpected body.`, res.status >= 400 ? res.status : 502);
  if (!res.ok || !parsed.data.success) {
    const first = parsed.data.errors[0];
    throw new CustomHostnameError(first?.message ?? `Cloudflare answered ${res.status}.`, res.ok ? 400 : res.status, first?.code);
  }
  return (parsed.data.result ?? null) as z.infer<T> | null;
}

/** Registers `hostname` with certificate validation `method` (txt or http). */
export async function createCustomHostname(config: CustomHostnamesConfig, hostname: string, method: "txt" | "http" = "txt"): Promise<CustomHostname> {
  const result = await call(config, "POST", "/custom_hostnames", customHostnameSchema, { hostname, ssl: { method, type: "dv" } });
  if (!result) throw new CustomHostnameError("Cloudflare answered no custom hostname.", 502);
  return result;
}

/** The current state of custom hostname `id`. */
export async function getCustomHostname(config: CustomHostnamesConfig, id: string): Promise<CustomHostname> {
  const result = await call(config, "GET", `/custom_hostnames/${encodeURIComponent(id)}`, customHostnameSchema);
  if (!result) throw new CustomHostnameError("Cloudflare answered no custom hostname.", 502);
  return result;
}

/** Deletes custom hostname `id`; an already deleted one (404) counts as done. */
export async function deleteCustomHostname(config: CustomHostnamesConfig, id: string): Promise<void> {
  try {
    await call(config, "DELETE", `/custom_hostnames/${encodeURIComponent(id)}`, z.object({ id: z.string() }).passthrough());
  } catch (error) {
    if (error instanceof CustomHostnameError && error.status === 404) return;
    throw error;
  }
}

/** The DNS records (ownership and certificate validation) to show the admin for `ch`. */
export function verificationRecordsOf(ch: CustomHostname): VerificationRecord[] {
  const out: VerificationRecord[] = [];
  const own = ch.ownership_verification;
  if (own?.name && own.value) out.push({ type: "TXT", name: own.name, value: own.value, purpose: "ownership" });
  for (const r of ch.ssl?.validation_records ?? []) {
    if (r.txt_name && r.txt_value) out.push({ type: "TXT", name: r.txt_name, value: r.txt_value, purpose: "ssl" });
    else if (r.http_url && r.http_body) out.push({ type: "HTTP", name: r.http_url, value: r.http_body, purpose: "ssl" });
    else if (r.cname && r.cname_target) out.push({ type: "CNAME", name: r.cname, value: r.cname_target, purpose: "ssl" });
  }
  return out;
}
