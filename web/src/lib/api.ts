/**
 * The request client (spec §7 "all calls carry a bearer token and send credentials" and §8 "request
 * handling"). Rules, in the order they apply:
 * - the token lives in localStorage under the key `token`; every call sends `Authorization: Bearer`
 *   (when a token exists) and `credentials: "include"`;
 * - a request that fails before sending, or gets no reply, or answers 401 logs the user out (token
 *   and user cleared) and goes to /login; the error still reaches the caller (a login form shows it);
 * - a 403 is marked retried and sent once more; a second 403 rejects;
 * - any other non-2xx rejects with an {@link ApiError} `{status, code, message, fields}` read from the
 *   worker's envelope `{error: {code, message, fields?}}` (DESIGN.md "API conventions").
 * Answers are parsed at the edge by a schema (a zod schema, or for the few answers the pages before
 * sign-in read, a plain parser with the same `safeParse` shape: answers-boot.ts), so no answer is
 * trusted by a cast. This module does not import zod, so /login does not load it (issue 9).
 */

/**
 * What `call` parses an answer with: a zod schema or any object with zod's `safeParse` shape.
 */
export type AnswerSchema<T> = {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
};

/** Where the bearer token is kept (spec §7: localStorage key `token`). */
export const TOKEN_KEY = "token";

/** A failed call as the caller sees it. `status` 0 means no reply; `fields` maps field → code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    /** Seconds from a `Retry-After` header (rate limits), else null. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Narrowing helper for `catch (error: unknown)`. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The token store: get, set, clear. */
export type TokenStore = {
  get(): string | null;
  set(token: string): void;
  clear(): void;
};

/** Minimal storage the token store needs (localStorage in the browser, a Map-backed fake in tests). */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/**
 * A token store over `storage` (default: `globalThis.localStorage`, read lazily so the module loads
 * where no storage exists). Storage failures (private mode) behave as "no token".
 */
export function createTokenStore(storage?: () => KeyValueStorage | undefined): TokenStore {
  const resolve = storage ?? (() => (typeof localStorage === "undefined" ? undefined : localStorage));
  return {
    get() {
      try {
        return resolve()?.getItem(TOKEN_KEY) ?? null;
      } catch {
        return null;
      }
    },
    set(token) {
      resolve()?.setItem(TOKEN_KEY, token);
    },
    clear() {
      try {
        resolve()?.removeItem(TOKEN_KEY);
      } catch {
        // nothing stored, nothing to clear
      }
    },
  };
}

/** Options of {@link createApiClient}. */
export type ApiClientOptions = {
  /** Prefix of every path, `/api` in the app (same origin as the page). */
  baseUrl: string;
  /** The fetch to use; tests pass a fake. */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  tokens: TokenStore;
  /** Called after the token is cleared on 401 / no reply: clears the user and goes to /login. */
  onLogout: () => void;
  /** Extra headers per call (the app sends Accept-Language). */
  headers?: () => Record<string, string>;
  /**
   * True while the page is being left (reload, navigation away): the browser then aborts requests
   * in flight, which is not the session failing, so it must not log the user out.
   */
  isUnloading?: () => boolean;
};

/** Per-call options: a JSON body or a multipart form, query parameters and an abort signal. */
export type RequestOptions = {
  body?: unknown;
  form?: FormData;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
};

/** Methods the client sends. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The client: `call` parses the answer with a schema, `send` ignores the answer body. */
export type ApiClient = {
  call<T>(method: HttpMethod, path: string, schema: AnswerSchema<T>, options?: RequestOptions): Promise<T>;
  send(method: HttpMethod, path: string, options?: RequestOptions): Promise<void>;
  tokens: TokenStore;
};

/** The worker's error envelope `{error: {code, message?, fields?}}` (DESIGN.md "API conventions"). */
type ErrorEnvelope = { code: string; message?: string; fields?: Record<string, string> };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The envelope's `error` when `body` is one (a string `code`, optional string `message`, string-valued `fields`), else null. */
export function readErrorEnvelope(body: unknown): ErrorEnvelope | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { code, message, fields } = body.error;
  if (typeof code !== "string") return null;
  if (message !== undefined && typeof message !== "string") return null;
  if (fields === undefined) return { code, message };
  if (!isRecord(fields)) return null;
  const byField: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value !== "string") return null;
    byField[field] = value;
  }
  return { code, message, fields: byField };
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return text;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = await readBody(response).catch(() => null);
  const envelope = readErrorEnvelope(body);
  const retryHeader = Number(response.headers.get("Retry-After"));
  const retryAfter = Number.isFinite(retryHeader) && retryHeader > 0 ? Math.ceil(retryHeader) : null;
  if (envelope) {
    const { code, message, fields } = envelope;
    return new ApiError(response.status, code, message ?? response.statusText, fields ?? {}, retryAfter);
  }
  return new ApiError(response.status, `http_${response.status}`, response.statusText || "Request failed", {}, retryAfter);
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ""}`;
}

/**
 * Builds a client over `options.fetch` applying the spec §8 rules described at the top of this file.
 * A call aborted by its own signal (a cancelled query) is not a session failure: it rejects without
 * logging out.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const logout = () => {
    options.tokens.clear();
    options.onLogout();
  };

  async function raw(method: HttpMethod, path: string, request: RequestOptions): Promise<Response> {
    let retried403 = false;
    for (;;) {
      let response: Response;
      try {
        const headers = new Headers(options.headers?.());
        headers.set("Accept", "application/json");
        const token = options.tokens.get();
        if (token) headers.set("Authorization", `Bearer ${token}`);
        let body: BodyInit | undefined;
        if (request.form) body = request.form;
        else if (request.body !== undefined) {
          headers.set("Content-Type", "application/json");
          body = JSON.stringify(request.body);
        }
        response = await options.fetch(buildUrl(options.baseUrl, path, request.query), {
          method,
          headers,
          body,
          credentials: "include",
          signal: request.signal,
        });
      } catch (error) {
        if (request.signal?.aborted || options.isUnloading?.()) throw error;
        // Failed before sending or got no reply (spec §8): the session is over.
        logout();
        throw new ApiError(0, "network_error", error instanceof Error ? error.message : "No reply");
      }
      if (response.ok) return response;
      if (response.status === 401) {
        logout();
        throw await toApiError(response);
      }
      if (response.status === 403 && !retried403) {
        // spec §8: a 403 is marked retried once, with no other action.
        retried403 = true;
        continue;
      }
      throw await toApiError(response);
    }
  }

  return {
    tokens: options.tokens,
    async call(method, path, schema, request = {}) {
      const response = await raw(method, path, request);
      const body = await readBody(response);
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        throw new ApiError(response.status, "invalid_answer", `Unexpected answer from ${method} ${path}`);
      }
      return parsed.data;
    },
    async send(method, path, request = {}) {
      await raw(method, path, request);
    },
  };
}

/** What {@link createNavigateTo} needs from the browser and the router. */
export type NavigationTarget = {
  /** The page's own origin, e.g. `http://localhost:8787`. */
  origin: string;
  /** Full-page navigation (window.location.assign). */
  assign(url: string): void;
  /** In-app navigation (router.navigate). */
  push(path: string): void;
};

/**
 * Returns `navigateTo(url, {external})` (spec §8: "navigation to an external URL without an explicit
 * flag is refused"). Same-origin URLs go through the router; another origin needs `external: true`
 * and an http(s) URL. Answers whether the navigation happened.
 */
export function createNavigateTo(target: NavigationTarget) {
  return function navigateTo(url: string, options: { external?: boolean } = {}): boolean {
    let resolved: URL;
    try {
      resolved = new URL(url, target.origin);
    } catch {
      return false;
    }
    if (resolved.protocol !== "http:" && resolved.protocol !== "https:") return false;
    if (resolved.origin === target.origin) {
      target.push(`${resolved.pathname}${resolved.search}${resolved.hash}`);
      return true;
    }
    if (!options.external) return false;
    target.assign(resolved.href);
    return true;
  };
}
