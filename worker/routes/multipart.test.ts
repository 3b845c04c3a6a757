/**
 * Issue 8 point 6: a malformed multipart body (no boundary, a wrong boundary, truncated, empty, not
 * multipart at all) answers 400 `validation_failed` naming the route's file field on every route
 * that reads one (worker/lib/multipart.ts), never a 500.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { QuickMessageAnswer } from "../../schema/api-types";
import type { FlowAnswer } from "../../schema/flow-api";
import { onlyTicket, pairSandbox, sandboxConnection, sandboxEvents } from "../test/channel-helpers";
import { call, expectStatus, form, register, uniqueIp, type ErrorBody } from "../test/helpers";

const BOUNDARY = "----conversa-test-boundary";

/** A well-formed multipart body with one text field and one file field named `fileField`. */
function multipartBody(fileField: string): string {
  return [
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="name"',
    "",
    "Nome",
    `--${BOUNDARY}`,
    `Content-Disposition: form-data; name="${fileField}"; filename="a.png"`,
    "Content-Type: image/png",
    "",
    "not really a png but long enough to be cut in the middle of the part",
    `--${BOUNDARY}--`,
    "",
  ].join("\r\n");
}

/** The malformed shapes: [name, Content-Type, body]. */
function shapes(fileField: string): [string, string, string][] {
  const good = multipartBody(fileField);
  return [
    ["no boundary", "multipart/form-data", good],
    ["a wrong boundary", "multipart/form-data; boundary=something-else", good],
    ["a truncated body", `multipart/form-data; boundary=${BOUNDARY}`, good.slice(0, Math.floor(good.length * 0.7))],
    ["an empty body", `multipart/form-data; boundary=${BOUNDARY}`, ""],
    ["a body that is not multipart", "text/plain", "just some text"],
  ];
}

async function raw(method: string, path: string, token: string, contentType: string, body: string): Promise<Response> {
  const headers = new Headers({ Authorization: `Bearer ${token}`, "Content-Type": contentType, "CF-Connecting-IP": uniqueIp() });
  return exports.default.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
}

type Route = {
  name: string;
  method: string;
  /** The route's file field: the one a malformed multipart body names. */
  field: string;
  /** Whether the route takes only multipart (a text/plain body then names `field` too). */
  multipartOnly: boolean;
  path: (token: string) => Promise<string>;
};

const routes: Route[] = [
  { name: "POST /api/flows/{id}/media", method: "POST", field: "file", multipartOnly: true, path: async (token) => `/api/flows/${(await expectStatus<FlowAnswer>(await call("POST", "/api/flows", { token, body: { name: "Mídia", type: "default" } }), 201)).id}/media` },
  {
    name: "POST /api/tickets/{id}/messages",
    method: "POST",
    field: "file",
    multipartOnly: false,
    path: async (token) => {
      const connection = await sandboxConnection(token);
      const device = await pairSandbox(token, connection.id);
      await expectStatus(await sandboxEvents(device, [{ kind: "message", id: `sbx-${crypto.randomUUID()}`, from: "+5511912345678", type: "text", body: "Oi", timestamp: Date.now() }]), 200);
      return `/api/tickets/${(await onlyTicket(token)).id}/messages`;
    },
  },
  { name: "POST /api/quick-messages", method: "POST", field: "file", multipartOnly: false, path: async () => "/api/quick-messages" },
  {
    name: "PUT /api/quick-messages/{id}",
    method: "PUT",
    field: "file",
    multipartOnly: false,
    path: async (token) => `/api/quick-messages/${(await expectStatus<QuickMessageAnswer>(await call("POST", "/api/quick-messages", { token, form: form({ name: "Oi", text: "Olá" }) }), 201)).id}`,
  },
  { name: "POST /api/contacts/import", method: "POST", field: "file", multipartOnly: true, path: async () => "/api/contacts/import" },
  { name: "PUT /api/me", method: "PUT", field: "image", multipartOnly: false, path: async () => "/api/me" },
  { name: "PUT /api/companies/active", method: "PUT", field: "image", multipartOnly: false, path: async () => "/api/companies/active" },
];

describe("malformed multipart answers 400 naming the field on every multipart route", () => {
  for (const route of routes) {
    it(`${route.name}: no boundary, a wrong boundary, truncated, empty or not multipart → 400 validation_failed`, async () => {
      const owner = await register();
      const path = await route.path(owner.token);
      for (const [shape, contentType, body] of shapes(route.field)) {
        const res = await raw(route.method, path, owner.token, contentType, body);
        const text = await res.text();
        expect(res.status, `${shape}: ${res.status} ${text}`).toBe(400);
        const answer = JSON.parse(text) as ErrorBody;
        expect(answer.error.code, `${shape}: ${text}`).toBe("validation_failed");
        if (contentType.startsWith("multipart/")) expect(answer.error.fields?.[route.field], `${shape}: ${text}`).toBe("malformed_multipart");
        else if (route.multipartOnly) expect(answer.error.fields?.[route.field], `${shape}: ${text}`).toBe("multipart_required");
        // A route that also takes JSON reads a text body as malformed JSON (or empty input): still a named 400.
        else expect(Object.keys(answer.error.fields ?? {}).length, `${shape}: ${text}`).toBeGreaterThan(0);
      }
    });
  }
});
