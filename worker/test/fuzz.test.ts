/**
 * Property-based fuzzing of every JSON body, multipart body, path parameter and list query the router
 * takes (issue 8 §8), with fast-check, as the owner of company A (franchise A's administrator on
 * franchise-admin routes; without a session on public routes): whatever arrives, the answer is never a 5xx, and every non-2xx answer is the one error
 * envelope `{error: {code, message, fields?}}`. Malformed multipart (no boundary, a wrong boundary,
 * truncated, empty) answers 400 `validation_failed`.
 *
 * Routes and their valid bodies come from the route matrix's table (worker/test/route-matrix.ts), so
 * a new route is fuzzed as soon as it is classified. The seed is printed; set FUZZ_SEED below to a
 * printed value to replay a run.
 */
import { env } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app } from "../app";
import { signHub } from "../lib/hmac";
import { APP_SECRET, messageWebhook, pairSandbox, waMessage, waStatus, wamid } from "./channel-helpers";
import { call } from "./helpers";
import { type Company, ROUTES, type RouteEntry, buildCompany, callRoute, envelopeProblem, registeredRoutes } from "./route-matrix";

/** Replay a failing run by putting its printed seed here. */
const FUZZ_SEED: number | null = null;
const seed = FUZZ_SEED ?? Date.now() % 2_147_483_647;
/** Cases per route and property: bounded so the file runs in about a minute on 2 shared cores. */
const RUNS = 20;

let A: Company;

beforeAll(async () => {
  console.log(`fuzz seed: ${seed} (set FUZZ_SEED in worker/test/fuzz.test.ts to replay)`);
  A = await buildCompany();
}, 180_000);

const routes = registeredRoutes(app.routes).filter((r) => ROUTES[r] !== undefined);
const entryOf = (route: string): RouteEntry => ROUTES[route]!;
const methodOf = (route: string) => route.slice(0, route.indexOf(" "));
/** The session a route is fuzzed with: none on public routes, company A's API key on the public API, the owner of company A otherwise. */
const tokenFor = (entry: RouteEntry) =>
  entry.access.kind === "public" ? undefined : entry.access.kind === "apiKey" ? A.apiKey : entry.access.kind === "franchiseAdmin" ? A.franchiseAdmin.token : A.owner.token;

// Fuzzed in order: routes that destroy their resource (DELETE, logout, accepting an invite) are
// never sent bodies or garbage, so company A's fixtures survive the whole file.
// Every POST/PUT gets JSON garbage, also those the table gives no JSON body (a route reading a body
// the table forgot, or a multipart route sent JSON, must still answer 4xx).
const jsonRoutes = routes.filter((r) => ["POST", "PUT", "PATCH"].includes(methodOf(r)) && !entryOf(r).destructive);
const formRoutes = routes.filter((r) => entryOf(r).multipart && !entryOf(r).destructive);
const paramRoutes = routes.filter((r) => entryOf(r).params && !entryOf(r).destructive && !entryOf(r).upgrade && methodOf(r) !== "DELETE");
const queryRoutes = routes.filter((r) => methodOf(r) === "GET" && !entryOf(r).upgrade && entryOf(r).access.kind !== "dev");

/** How many answers of each status the fuzzer saw (printed at the end). */
const statuses = new Map<number, number>();

afterAll(() => {
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const by = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(", ");
  console.log(`fuzz: ${total} requests, seed ${seed}: ${by}`);
});

/** Asserts the answer is not a 5xx and that a non-2xx carries the error envelope. */
async function checkAnswer(res: Response, what: string): Promise<void> {
  const text = await res.text();
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  if (res.status >= 500) throw new Error(`${what} → ${res.status} ${text.slice(0, 500)}`);
  if (res.status >= 200 && res.status < 300) return;
  const problem = envelopeProblem(text);
  if (problem) throw new Error(`${what} → ${res.status} without the error envelope (${problem}): ${text.slice(0, 300)}`);
}

const shown = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

/** Strings that break naive parsers: numbers as text, NaN-ish, SQL, paths, controls, unicode, huge. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "NaN",
    "Infinity",
    "-Infinity",
    "-1",
    "0",
    "-0",
    "1e309",
    "99999999999999999999999",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    "\u0000",
    "%00",
    "%",
    "%%",
    "_",
    "\\",
    "' OR 1=1 --",
    '"; DROP TABLE contacts; --',
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "{{first_name}}",
    "\u202e\u200b\ufeff",
    "😀".repeat(60),
    "ç".repeat(300),
    "00000000-0000-0000-0000-000000000000",
    "019a0000-0000-7000-8000-000000000000",
  ),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => "x".repeat(n)),
);

/** A value nested `depth` levels deep in arrays or objects. */
const deep = fc.tuple(fc.integer({ min: 50, max: 3_000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** Any JSON value, with the nasty strings, extreme numbers and deep nesting mixed in. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 2 ** 53 + 1, -(2 ** 63), 1e300)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 300 }) },
  { weight: 1, arbitrary: deep },
);

/** Narrows a JSON value to a plain object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structure-aware mutations of a valid body: a field dropped, mistyped, oversized, or one added. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const options: fc.Arbitrary<unknown>[] = [
    fc.tuple(fc.string({ maxLength: 20 }), nastyValue).map(([key, value]) => ({ ...valid, [key]: value })),
    // Keys that pollute prototypes when merged naively (sent as text: a literal would not carry them).
    fc.constant({ raw: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},').replace(",}", "}") }),
  ];
  if (keys.length > 0) {
    const key = fc.constantFrom(...keys);
    options.push(
      key.map((k) => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== k))),
      fc.tuple(key, nastyValue).map(([k, value]) => ({ ...valid, [k]: value })),
      fc.tuple(key, fc.integer({ min: 1_000, max: 200_000 })).map(([k, n]) => ({ ...valid, [k]: "é".repeat(n) })),
      fc.tuple(key, fc.integer({ min: 100, max: 10_000 })).map(([k, n]) => ({ ...valid, [k]: Array.from({ length: n }, () => valid[k]) })),
      fc.tuple(key, fc.constantFrom(null, 0, "", [], {}, true, "NaN", -1)).map(([k, value]) => ({ ...valid, [k]: value })),
    );
  }
  // One level down: the same mutations on a nested object or array element.
  for (const k of keys) {
    const inner = valid[k];
    const first = Array.isArray(inner) ? inner[0] : inner;
    if (isRecord(first)) {
      const nested = mutated(first);
      options.push(nested.map((value) => ({ ...valid, [k]: Array.isArray(inner) ? [value, ...inner.slice(1)] : value })));
    }
  }
  return fc.oneof(...options);
}

type Path = (string | number)[];

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) value.forEach((v, i) => { out.push([...prefix, i]); pathsOf(v, [...prefix, i], out); });
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) { out.push([...prefix, k]); pathsOf(v, [...prefix, k], out); }
  return out;
}

const DROP = Symbol("drop");

/** A deep copy of `value` with the value at `path` replaced (or removed with DROP). */
function setAt(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && next === DROP) copy.splice(Number(head), 1);
    else copy[Number(head)] = setAt(copy[Number(head)], rest, next);
    return copy;
  }
  if (isRecord(value)) {
    const copy = { ...value };
    if (rest.length === 0 && next === DROP) delete copy[String(head)];
    else copy[String(head)] = setAt(copy[String(head)], rest, next);
    return copy;
  }
  return value;
}

/** Mutations anywhere in a nested valid document: a value dropped or replaced by a nasty one. */
function deepMutated(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  if (paths.length === 0) return nastyValue;
  return fc.tuple(fc.constantFrom(...paths), fc.oneof({ weight: 1, arbitrary: fc.constant<unknown>(DROP) }, { weight: 3, arbitrary: nastyValue })).map(([path, next]) =>
    setAt(valid, path, next),
  );
}

/** A body that is not JSON at all, sent as application/json. */
const notJson = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom("{", "[", '{"a":', "{'a': 1}", "NaN", "undefined", "\u0000", '{"a":1}garbage', "\ufeff{}", '{"__proto__": {"x": 1}}'),
);

describe("fuzzing JSON bodies", () => {
  it("covers every POST and PUT route that does not destroy its resource", () => {
    console.log(`fuzz: ${jsonRoutes.length} JSON routes, ${formRoutes.length} multipart routes, ${paramRoutes.length} routes with path parameters, ${queryRoutes.length} GET routes`);
    expect(jsonRoutes.length).toBeGreaterThan(50);
    expect(jsonRoutes.filter((r) => entryOf(r).body).length).toBeGreaterThan(40);
  });

  for (const route of jsonRoutes) {
    it(`${route}: any JSON body never 5xx, one error envelope`, async () => {
      const entry = entryOf(route);
      const valid = entry.body?.(A.ids) ?? {};
      const body = fc.oneof(
        { weight: 2, arbitrary: nastyValue },
        { weight: 3, arbitrary: isRecord(valid) ? mutated(valid) : nastyValue },
        { weight: 2, arbitrary: deepMutated(valid) },
        { weight: 1, arbitrary: notJson.map((raw) => ({ raw })) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })) },
      );
      // Mostly JSON; sometimes a body declared as something else, or JSON in another charset.
      const contentType = fc.oneof(
        { weight: 6, arbitrary: fc.constant("application/json") },
        { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/json; charset=utf-16", "application/x-www-form-urlencoded", "multipart/form-data", "application/json;;;") },
      );
      await fc.assert(
        fc.asyncProperty(body, contentType, async (value, type) => {
          const single = isRecord(value) && Object.keys(value).length === 1;
          const raw: string | Uint8Array =
            single && typeof value.raw === "string" ? value.raw : single && value.bytes instanceof Uint8Array ? value.bytes : JSON.stringify(value);
          const res = await callRoute(route, entry, A.ids, { token: tokenFor(entry), rawBody: raw, contentType: type });
          await checkAnswer(res, `${route} ${type} body ${typeof raw === "string" ? shown(raw) : `${raw.length} raw bytes`}`);
        }),
        { numRuns: RUNS, seed, endOnFailure: true },
      );
    }, 120_000);
  }
});

/** The bytes and content type of `form` as a browser would send it. */
async function encoded(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const res = new Response(form);
  return { bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get("Content-Type") ?? "" };
}

describe("fuzzing multipart bodies", () => {
  for (const route of formRoutes) {
    it(`${route}: malformed multipart (no boundary, wrong boundary, truncated, empty) answers 400`, async () => {
      const entry = entryOf(route);
      const { bytes, type } = await encoded(entry.multipart!(A.ids));
      const cases: [string, BodyInit, string][] = [
        ["no boundary", bytes, "multipart/form-data"],
        ["wrong boundary", bytes, "multipart/form-data; boundary=not-the-boundary-used"],
        ["truncated", bytes.slice(0, Math.floor(bytes.length / 2)), type],
        ["empty", new Uint8Array(0), type],
      ];
      const failures: string[] = [];
      for (const [name, body, contentType] of cases) {
        const res = await callRoute(route, entry, A.ids, { token: tokenFor(entry), rawBody: body, contentType });
        const text = await res.text();
        if (res.status !== 400 || envelopeProblem(text) !== null) failures.push(`${name}: ${res.status} ${text.slice(0, 200)}`);
      }
      expect(failures, failures.join("\n")).toEqual([]);
    }, 60_000);

    it(`${route}: fuzzed multipart never 5xx, one error envelope`, async () => {
      const entry = entryOf(route);
      const { bytes, type } = await encoded(entry.multipart!(A.ids));
      // workerd's FormData cannot encode a field name or file name ending in a backslash (it throws
      // before sending); raw and truncated bodies below cover bytes a FormData cannot make.
      const encodable = (s: string) => !s.endsWith("\\");
      const field = fc.tuple(
        fc.oneof(fc.constantFrom("file", "image", "name", "text", "type", "body", "timezone", "showAttendantName", "phone", "quotedId", "removeMedia"), fc.string({ maxLength: 20 }).filter(encodable)),
        fc.oneof(
          nastyString.map((v): string | File => v),
          fc.tuple(fc.uint8Array({ maxLength: 2_000 }), fc.string({ maxLength: 40 }).filter(encodable), fc.constantFrom("", "image/png", "text/html", "image/svg+xml", "application/octet-stream", "x/y;;"))
            .map(([data, name, mime]): string | File => new File([data], name, { type: mime })),
        ),
      );
      const body = fc.oneof(
        fc.array(field, { maxLength: 6 }).map((fields) => {
          const form = new FormData();
          for (const [name, value] of fields) form.append(name, value);
          return { form };
        }),
        fc.integer({ min: 0, max: Math.max(0, bytes.length - 1) }).map((cut) => ({ raw: bytes.slice(0, cut), type })),
        fc.uint8Array({ maxLength: 2_000 }).map((junk) => ({ raw: junk, type })),
      );
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const res =
            "form" in value
              ? await callRoute(route, entry, A.ids, { token: tokenFor(entry), form: value.form })
              : await callRoute(route, entry, A.ids, { token: tokenFor(entry), rawBody: value.raw, contentType: value.type });
          const what = "form" in value ? `form fields ${shown([...value.form.keys()])}` : `raw ${value.raw.length} bytes`;
          await checkAnswer(res, `${route} ${what}`);
        }),
        { numRuns: RUNS, seed, endOnFailure: true },
      );
    }, 120_000);
  }
});

describe("fuzzing path parameters", () => {
  const garbage = fc.oneof(
    nastyString.filter((s) => s.length > 0 && s.length < 5_000),
    fc.uuid(),
    fc.constantFrom("..", ".", "%2e%2e", "a/b", "null", "0", "-1"),
  );
  for (const route of paramRoutes) {
    it(`${route}: a garbage id answers 400 or 404, never 5xx`, async () => {
      const entry = entryOf(route);
      const names = Object.keys(entry.params!);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...names), garbage, async (name, value) => {
          const key = entry.params![name]!;
          const ids = { ...A.ids, [key]: encodeURIComponent(value) };
          const res = await callRoute(route, entry, ids, { token: tokenFor(entry) });
          await checkAnswer(res, `${route} :${name}=${shown(value)}`);
        }),
        { numRuns: RUNS, seed, endOnFailure: true },
      );
    }, 120_000);
  }
});

describe("fuzzing query strings", () => {
  const key = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("cursor", "limit", "search", "status", "tags", "tag", "fields", "folderId", "id", "ref", "after", "before", "code", "phone", "token", "connectionId", "queue", "assigned", "columnId", "sort", "order", "page", "blocks", "iterations", "hub.mode", "hub.verify_token", "hub.challenge", "access_token", "exp", "sig") },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const value = fc.oneof(
    nastyString.filter((s) => s.length < 20_000),
    fc.constantFrom("-1", "0", "1", "201", "1000000", "abc", "1.5", "eyJpZCI6IngifQ", "eyJ9", "%ZZ", "garbage==", "root"),
  );
  for (const route of queryRoutes) {
    it(`${route}: garbage queries never 5xx, one error envelope`, async () => {
      const entry = entryOf(route);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 5 }), async (pairs) => {
          const query = new URLSearchParams(pairs).toString();
          const res = await callRoute(route, entry, A.ids, { token: tokenFor(entry), query });
          await checkAnswer(res, `${route}?${shown(query)}`);
        }),
        { numRuns: RUNS, seed, endOnFailure: true },
      );
    }, 120_000);
  }
});

describe("fuzzing provider deliveries with valid credentials", () => {
  it("a signed WhatsApp Cloud API webhook with a mutated envelope never answers 5xx", async () => {
    const from = "5511988776655";
    const base = messageWebhook(A.phoneNumberId, waMessage(from, "text", { text: { body: "Olá" } }));
    const withStatus = setAt(base, ["entry", 0, "changes", 0, "value", "statuses"], [waStatus(wamid(), "delivered")]);
    const payload = fc.oneof(
      { weight: 4, arbitrary: deepMutated(base) },
      { weight: 2, arbitrary: deepMutated(withStatus) },
      { weight: 1, arbitrary: nastyValue },
      { weight: 1, arbitrary: notJson.map((raw) => ({ raw })) },
    );
    await fc.assert(
      fc.asyncProperty(payload, async (value) => {
        const raw = isRecord(value) && typeof value.raw === "string" && Object.keys(value).length === 1 ? value.raw : JSON.stringify(value);
        const res = await call("POST", "/api/channels/whatsapp/webhook", { body: raw, headers: { "X-Hub-Signature-256": await signHub(APP_SECRET, raw) } });
        await checkAnswer(res, `signed webhook ${shown(raw)}`);
      }),
      { numRuns: RUNS * 3, seed, endOnFailure: true },
    );
  }, 120_000);

  it("a whatsapp-qr connection's mutated Evolution API webhooks never answer 5xx (issue 15)", async () => {
    const created = await call("POST", "/api/connections", { token: A.owner.token, body: { channel: "whatsapp-qr", name: "Fuzz QR" } });
    const { id } = (await created.json()) as { id: string };
    const instances = (await (await fetch(`${env.EVOLUTION_STANDIN_ORIGIN}/__instances`)).json()) as { name: string; webhookUrl: string }[];
    const path = new URL(instances.find((i) => i.name === `conversa-${id}`)!.webhookUrl).pathname;
    const key = { remoteJid: "5511988776655@s.whatsapp.net", fromMe: false, id: "3AFUZZ0001" };
    const bases = [
      { event: "messages.upsert", instance: `conversa-${id}`, data: { key, pushName: "Maria", message: { conversation: "Olá" }, messageType: "conversation", messageTimestamp: 1_700_000_000, contextInfo: { stanzaId: "3AQ" } } },
      { event: "messages.upsert", instance: `conversa-${id}`, data: { key, message: { imageMessage: { mimetype: "image/jpeg", caption: "x" } } } },
      { event: "messages.upsert", instance: `conversa-${id}`, data: { key: { ...key, fromMe: true }, message: { reactionMessage: { key, text: "👍" } } } },
      { event: "messages.update", instance: `conversa-${id}`, data: { keyId: "3AFUZZ0001", remoteJid: key.remoteJid, fromMe: true, status: "READ" } },
      { event: "messages.delete", instance: `conversa-${id}`, data: key },
      { event: "connection.update", instance: `conversa-${id}`, data: { instance: `conversa-${id}`, state: "open", wuid: "5511955550000@s.whatsapp.net" } },
      { event: "qrcode.updated", instance: `conversa-${id}`, data: { qrcode: { code: "2@abc", pairingCode: null } } },
    ];
    const payload = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...bases).chain((base) => deepMutated(base)) }, { weight: 1, arbitrary: nastyValue });
    await fc.assert(
      fc.asyncProperty(payload, async (value) => {
        const res = await call("POST", path, { body: JSON.stringify(value) });
        await checkAnswer(res, `evolution webhook ${shown(value)}`);
      }),
      { numRuns: RUNS * 3, seed, endOnFailure: true },
    );
  }, 120_000);

  it("the paired sandbox phone's mutated events never answer 5xx", async () => {
    const deviceToken = await pairSandbox(A.owner.token, A.ids.connection);
    const base = {
      events: [
        { kind: "message", id: `sbx-${crypto.randomUUID()}`, from: "+5511988776655", name: "Maria", type: "text", body: "Olá" },
        { kind: "status", id: "msg-00000001", status: "read" },
        { kind: "presence", from: "+5511988776655", state: "typing" },
      ],
    };
    const payload = fc.oneof({ weight: 4, arbitrary: deepMutated(base) }, { weight: 1, arbitrary: nastyValue });
    await fc.assert(
      fc.asyncProperty(payload, async (value) => {
        const res = await call("POST", "/api/channels/sandbox/events", { body: JSON.stringify(value), headers: { Authorization: `Device ${deviceToken}` } });
        await checkAnswer(res, `sandbox events ${shown(value)}`);
      }),
      { numRuns: RUNS * 3, seed, endOnFailure: true },
    );
  }, 120_000);
});
