/**
 * The sandbox phone's calls (worker/routes/channels.ts). They do not use the app's session client:
 * the phone has no user session, it authenticates with its device token (`Authorization: Device`),
 * and a 401 here means "not paired" rather than "logged out".
 */
import { z } from "zod";
import { ApiError } from "@/lib/api";
import { pairAnswer, transcriptAnswer, type PairAnswer, type PhoneEvent } from "../lib/protocol";

const errorEnvelope = z.object({
  error: z.object({ code: z.string(), message: z.string().optional(), fields: z.record(z.string(), z.string()).optional() }),
});

async function request<T>(path: string, init: RequestInit, schema: z.ZodType<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers: { Accept: "application/json", ...init.headers } });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError(0, "network_error", error instanceof Error ? error.message : "No reply");
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const envelope = errorEnvelope.safeParse(body);
    const retryHeader = Number(response.headers.get("Retry-After"));
    const retryAfter = Number.isFinite(retryHeader) && retryHeader > 0 ? Math.ceil(retryHeader) : null;
    if (envelope.success) {
      const { code, message, fields } = envelope.data.error;
      throw new ApiError(response.status, code, message ?? response.statusText, fields ?? {}, retryAfter);
    }
    throw new ApiError(response.status, `http_${response.status}`, response.statusText || "Request failed", {}, retryAfter);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, "invalid_answer", `Unexpected answer from ${path}`);
  return parsed.data;
}

/** Whether a failed phone call means the device is no longer paired. */
export function isUnpaired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** POST /api/channels/sandbox/pair with the QR's secret or the typed code → device token. */
export function pairDevice(input: { secret: string } | { code: string }): Promise<PairAnswer> {
  return request("/channels/sandbox/pair", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input) }, pairAnswer);
}

/** POST /api/channels/sandbox/events (at most 50 per call). */
export async function sendPhoneEvents(token: string, events: PhoneEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 50) {
    await request(
      "/channels/sandbox/events",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Device ${token}` },
        body: JSON.stringify({ events: events.slice(i, i + 50) }),
        keepalive: false,
      },
      z.unknown(),
    );
  }
}

/** GET /api/channels/sandbox/transcript?phone=&token= → the connection and the customer's lines. */
export function fetchTranscript(token: string, phone: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ phone, token });
  return request(`/channels/sandbox/transcript?${query.toString()}`, { method: "GET", signal }, transcriptAnswer);
}

/** The phone's WebSocket URL for `token` on this page's host. */
export function phoneSocketUrl(token: string, location: Pick<Location, "protocol" | "host">): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/api/channels/sandbox/ws?token=${encodeURIComponent(token)}`;
}
