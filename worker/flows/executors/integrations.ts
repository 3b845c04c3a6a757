/**
 * Integration and facebook pixel blocks.
 */
import { HANDLES } from "../../../schema/flows";
import { pixelUserData } from "../pixel";
import { next, splitName, type Executor, type StepRuntime } from "../runtime";
import { HTTP_TIMEOUT_MS, type PixelEvent } from "../types";
import { checkPublicHttpUrl } from "../url-guard";

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/**
 * The value at a dot path (`data.items.0.name`) of a parsed JSON answer, own properties only, or
 * undefined. Objects and arrays are answered as JSON text, numbers and booleans as text.
 */
export function valueAtPath(root: unknown, path: string): string | undefined {
  let current: unknown = root;
  for (const part of path.split(".").filter(Boolean)) {
    if (Array.isArray(current)) current = /^\d+$/.test(part) ? current[Number(part)] : undefined;
    else if (typeof current === "object" && current !== null && Object.hasOwn(current, part)) current = Object.getOwnPropertyDescriptor(current, part)?.value;
    else return undefined;
  }
  if (current === undefined || current === null) return undefined;
  if (typeof current === "string") return current;
  if (typeof current === "number" || typeof current === "boolean") return String(current);
  return JSON.stringify(current);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Builds the request (variables URI-encoded in the URL; JSON-escaped in the body when the body is
 * JSON — a JSON content type or a body starting with `{`/`[`, which also sets
 * `content-type: application/json` when missing), refuses non-public addresses (`failure` with a
 * `url_refused` warning), emits `http` with a token and waits for `http_result`.
 */
export const integrationExecutor: Executor<"integration"> = {
  enter(node, run) {
    const { data } = node;
    const url = run.renderUrl(data.url.trim());
    const checked = checkPublicHttpUrl(url);
    if (!checked.ok) {
      run.warn(node.id, "url_refused", `The address "${url}" was refused (${checked.reason}): only public http(s) addresses may be called.`);
      return next(HANDLES.failure);
    }
    const entries = data.headers
      .map((header): [string, string] => [header.name.trim(), run.render(header.value).replace(/[\r\n]+/g, " ").trim()])
      .filter(([name]) => HEADER_NAME.test(name));
    const contentType = entries.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
    const isJson = contentType.toLowerCase().includes("json") || /^\s*[[{]/.test(data.body);
    const hasBody = data.body.trim() !== "" && data.method !== "GET";
    const headers = Object.fromEntries(hasBody && isJson && !contentType ? [...entries, ["content-type", "application/json"]] : entries);
    const body = hasBody ? (isJson ? run.renderJson(data.body) : run.render(data.body)) : null;
    const token = run.token(node.id);
    run.emit({ type: "http", nodeId: node.id, token, request: { method: data.method, url: checked.url.href, headers, body, timeoutMs: HTTP_TIMEOUT_MS } });
    return { kind: "wait", wait: { kind: "http", nodeId: node.id, token } };
  },
  /** 2xx → saves the mapped values (warnings for missing ones) and `success`; anything else → `failure`. */
  http(node, run, result) {
    if (!result.ok || result.status < 200 || result.status > 299) return next(HANDLES.failure);
    if (node.data.save.length === 0) return next(HANDLES.success);
    const parsed = parseJson(result.body);
    if (!parsed.ok) {
      run.warn(node.id, "invalid_answer", "The answer is not JSON; nothing was saved.");
      return next(HANDLES.success);
    }
    for (const { path, fieldKey } of node.data.save) {
      if (!fieldKey) continue;
      const value = valueAtPath(parsed.value, path);
      if (value === undefined) {
        run.warn(node.id, "invalid_answer", `The answer has no value at "${path}".`);
        continue;
      }
      const saved = run.setField(node.id, fieldKey, value);
      if (!saved.ok) run.warn(node.id, "invalid_value", `The value at "${path}" does not fit the field {{${fieldKey}}} (${saved.reason}).`);
    }
    return next(HANDLES.success);
  },
};

function pixelEvent(run: StepRuntime, nodeId: string, data: { eventName: string; value: number | null; currency: string }): PixelEvent {
  const { contact } = run.context;
  const { first, last } = splitName(run.value("full_name") ?? contact.name);
  const customData = { ...(data.value !== null ? { value: data.value } : {}), ...(data.currency ? { currency: data.currency } : {}) };
  return {
    event_name: data.eventName,
    event_time: Math.floor(run.now / 1000),
    // Stable per run and block, so a performer retrying the post does not count the event twice.
    event_id: `${contact.id}:${run.token(nodeId)}`,
    action_source: "chat",
    user_data: pixelUserData({ email: run.value("email") ?? null, phone: contact.phone, firstName: first, lastName: last, externalId: contact.id }),
    ...(Object.keys(customData).length > 0 ? { custom_data: customData } : {}),
  };
}

/** Emits `pixel` with normalised (unhashed) user data; the performer hashes (pixel.ts). */
export const facebookPixelExecutor: Executor<"facebook_pixel"> = {
  enter(node, run) {
    const { data } = node;
    if (!data.pixelId || !data.accessToken || !data.eventName) {
      run.warn(node.id, "missing_config", "The pixel id, access token or event is missing; no event was sent.");
      return next(HANDLES.next);
    }
    run.emit({
      type: "pixel",
      nodeId: node.id,
      pixelId: data.pixelId,
      accessToken: data.accessToken,
      testEventCode: data.testEventCode || null,
      event: pixelEvent(run, node.id, data),
    });
    return next(HANDLES.next);
  },
};
