/**
 * Company API keys (issue 8 §6; DESIGN.md "API conventions": the public API accepts a company API
 * key): the create input shared by the worker and the web form, and the answer shapes.
 *
 * Reason codes in `error.fields`: `required`, `name_too_short`, `too_long`, `invalid_name`
 * (name); `required` (absent), `scopes_required` (empty), `invalid_scope`, `duplicate_scope` (scopes).
 */
import { z } from "zod";
import { API_KEY_SCOPES, type ApiKeyScope } from "../api-keys";
import { nameSchema } from "./common";

/** A route of the public API: its method, its path as the Hono router spells it, and its scope. */
export type PublicApiRoute = { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; path: string; scope: ApiKeyScope };

/**
 * Every route an API key may call (the public API), with the scope it needs. The one source of the
 * rule: the middleware (worker/middleware/auth.ts) refuses a key on any route not listed here, the route
 * matrix test classifies routes by it, and the integration page documents it.
 */
export const PUBLIC_API_ROUTES: readonly PublicApiRoute[] = [
  { method: "GET", path: "/api/contacts", scope: "contacts:read" },
  { method: "GET", path: "/api/contacts/:id", scope: "contacts:read" },
  { method: "GET", path: "/api/tags", scope: "contacts:read" },
  { method: "GET", path: "/api/custom-fields", scope: "contacts:read" },
  { method: "POST", path: "/api/contacts", scope: "contacts:write" },
  { method: "PUT", path: "/api/contacts/:id", scope: "contacts:write" },
  { method: "GET", path: "/api/tickets", scope: "tickets:read" },
  { method: "GET", path: "/api/tickets/:id", scope: "tickets:read" },
  { method: "GET", path: "/api/tickets/:id/messages", scope: "tickets:read" },
  { method: "POST", path: "/api/tickets/:id/messages", scope: "messages:send" },
  { method: "GET", path: "/api/flows", scope: "flows:start" },
  { method: "POST", path: "/api/tickets/:id/start-flow", scope: "flows:start" },
  // The versioned public API (worker/routes/v1.ts): keys only, documented at /api/v1/openapi.json.
  { method: "POST", path: "/api/v1/messages", scope: "messages:send" },
  { method: "GET", path: "/api/v1/contacts", scope: "contacts:read" },
  { method: "GET", path: "/api/v1/contacts/:id", scope: "contacts:read" },
  { method: "POST", path: "/api/v1/contacts", scope: "contacts:write" },
  { method: "PATCH", path: "/api/v1/contacts/:id", scope: "contacts:write" },
  { method: "POST", path: "/api/v1/contacts/:id/tags", scope: "contacts:write" },
  { method: "DELETE", path: "/api/v1/contacts/:id/tags/:tagId", scope: "contacts:write" },
  { method: "PUT", path: "/api/v1/contacts/:id/fields", scope: "contacts:write" },
  { method: "POST", path: "/api/v1/contacts/:id/flows", scope: "flows:start" },
  { method: "GET", path: "/api/v1/tickets", scope: "tickets:read" },
];

/** POST /api/companies/active/api-keys `{name, scopes}`: a label and at least one scope, each once. */
export const apiKeyCreateInput = z.object({
  name: nameSchema,
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: "invalid_scope" }), { error: "scopes_required" })
    .min(1, { error: "scopes_required" })
    .refine((list) => new Set(list).size === list.length, { error: "duplicate_scope" }),
});
export type ApiKeyCreateInput = z.infer<typeof apiKeyCreateInput>;

/** One key as listed: never the key itself nor its hash. Times in ms UTC. */
export type ApiKeyAnswer = {
  id: string;
  name: string;
  /** The key masked to its last four characters (`••••••••abcd`). */
  hint: string;
  scopes: ApiKeyScope[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
};

/** POST /api/companies/active/api-keys → 201: the listed shape plus the key, shown this once. */
export type ApiKeyCreatedAnswer = ApiKeyAnswer & { key: string };
