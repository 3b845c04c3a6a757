/**
 * The flow engine's contract (DESIGN.md "The flow engine"): a run's state, the events that move it,
 * the context it reads, and the effects it asks the performer (the `ContactSession` Durable
 * Object, or the editor's test run in the browser) to carry out. Types only; nothing here touches
 * the worker runtime, so the web imports the same engine.
 *
 * Units: every time is integer milliseconds UTC (`now`, `deadline`, `at`, `until`); durations in
 * ms (`durationMs`, `timeoutMs`). The run state is plain JSON (no Map, no Date, no undefined that
 * matters), so it is stored as-is and survives restarts and deploys.
 */
import type { CustomFieldType } from "../../schema/custom-fields";
import type { MessageType } from "../../schema/tickets";
import type { ChannelCapabilities, OutboundMessage } from "../channels/types";

/** Version of the run-state shape (stored with each run). */
export const RUN_STATE_VERSION = 1;
/** Blocks a run may execute in one step without waiting before the loop guard stops it. */
export const MAX_STEPS_WITHOUT_WAIT = 500;
/** Replies kept for later while the run waits on a delay or an HTTP answer; more are not taken. */
export const MAX_QUEUED_REPLIES = 10;
/** The integration block's request timeout (ms). */
export const HTTP_TIMEOUT_MS = 10_000;
/** Longest typing/recording indicator (ms): the Cloud API's typing indicator lasts at most 25 s. */
export const MAX_PRESENCE_MS = 25_000;

// ---------------------------------------------------------------------------------------------
// Run state
// ---------------------------------------------------------------------------------------------

/**
 * What a waiting run waits for.
 * - `reply`: the contact's answer to the block `nodeId` (receive, list, number, link buttons).
 *   `deadline` (ms) is when the `no_answer` output is taken, with the timer `token` armed for it;
 *   both null when the block waits forever. `errors`: invalid answers so far.
 * - `timer`: a delay. `until` is when the armed timer `token` fires; `endsAt` when the delay ends;
 *   `phase: "presence"` means the timer fires early to show the indicator for the last ≤ 25 s.
 * - `http`: the answer to the integration request `token`.
 */
export type RunWait =
  | { kind: "reply"; nodeId: string; deadline: number | null; token: string | null; errors: number }
  | { kind: "timer"; nodeId: string; until: number; endsAt: number; token: string; phase: "presence" | "end" }
  | { kind: "http"; nodeId: string; token: string };

export type ReplyWait = Extract<RunWait, { kind: "reply" }>;
export type TimerWait = Extract<RunWait, { kind: "timer" }>;
export type HttpWait = Extract<RunWait, { kind: "http" }>;

/** `running` only inside a step; a stored run is `waiting`, `done` or `failed`. */
export type RunStatus = "running" | "waiting" | "done" | "failed";

/**
 * Why a run failed:
 * - `loop_guard`: MAX_STEPS_WITHOUT_WAIT blocks in one step without waiting (a loop);
 * - `missing_block`: the state points at a block the flow does not have (a run resumed on another
 *   version of the flow than the one it started with).
 */
export type RunErrorCode = "loop_guard" | "missing_block";

/** A failed run's error: a code, an English message naming the block, and the block. */
export type RunError = { code: RunErrorCode; message: string; nodeId: string | null };

/** How a `done` run ended: it reached an output with no edge, continued in another flow, or was stopped. */
export type RunEndReason = "end" | "flow_connection" | "stopped";

/** A reply that arrived while the run waited on a delay or an HTTP answer, kept for the next question. */
export type QueuedReply = { type: MessageType; body: string; replyId: string | null; at: number };

/**
 * One run of one flow for one contact. Plain JSON.
 * - `nodeId`/`since`: the block the run is on and since when (ms) — "which block, since when".
 * - `steps`: blocks executed over the run's life; `seq`: tokens issued (timers, HTTP, pixel ids).
 */
export type FlowRunState = {
  version: typeof RUN_STATE_VERSION;
  status: RunStatus;
  nodeId: string | null;
  since: number | null;
  wait: RunWait | null;
  queue: QueuedReply[];
  steps: number;
  seq: number;
  startedAt: number | null;
  updatedAt: number | null;
  endReason: RunEndReason | null;
  error: RunError | null;
};

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** The contact's message: its type, text (or caption), and the id of the button/list row clicked. */
export type InboundReply = { type: MessageType; body: string; replyId?: string };

/** The performer's report of an integration request: `ok` when it got a 2xx; `status` 0 on a timeout or a refused address; `body` the answer's text (the performer caps it, e.g. 64 kB). */
export type HttpResult = { ok: boolean; status: number; body: string };

/**
 * What moves a run:
 * - `start`: begin at the start block (restarts a run that was somewhere else);
 * - `reply`: the contact answered;
 * - `timer`: the timer `token` fired (the performer's alarm);
 * - `http_result`: the integration request `token` ended;
 * - `stop`: a member stopped the run.
 */
export type FlowEvent =
  | { kind: "start" }
  | ({ kind: "reply" } & InboundReply)
  | { kind: "timer"; token: string }
  | ({ kind: "http_result"; token: string } & HttpResult)
  | { kind: "stop" };

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

/**
 * The contact as the run sees it at this step. `fields`: custom field values by key, as stored
 * (normalised text: numbers as decimal text, dates `YYYY-MM-DD`, datetimes ms as text); the
 * integrator may add the conversation's built-ins (`last_message`, `last_media`, `last_campaign`).
 * `tags`: tag names.
 */
export type FlowContact = {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  document: string | null;
  fields: Readonly<Record<string, string>>;
  tags: readonly string[];
};

/**
 * What `step` reads besides the flow and the state. `now` in ms UTC; `random()` in [0, 1)
 * (injectable for tests); `company.timezone` IANA (conditions and date answers);
 * `company.fieldTypes` the company's custom fields by key (receive validation, save
 * normalisation); `rotary` the per-block round-robin counters (node id → count, kept by the
 * performer, advanced by `rotary_advance`); `maxStepsWithoutWait` overrides the loop guard.
 */
export type FlowContext = {
  now: number;
  random: () => number;
  contact: FlowContact;
  company: { timezone: string; fieldTypes: Readonly<Record<string, CustomFieldType>> };
  rotary: Readonly<Record<string, number>>;
  maxStepsWithoutWait?: number;
  /**
   * What the run's channel shows (its adapter's capabilities, issue 15): without buttons or lists,
   * those blocks send a numbered text menu answered by number or title (flows/numbered-menu.ts).
   * Absent (the editor's test run): everything is shown as built.
   */
  capabilities?: Pick<ChannelCapabilities, "buttons" | "lists" | "maxButtons">;
};

// ---------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------

/** An HTTP request for the performer (after re-checking the address; see url-guard.ts). */
export type HttpRequest = { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; url: string; headers: Record<string, string>; body: string | null; timeoutMs: number };

/**
 * Conversions API user data, normalised as Meta documents (em: trimmed, lower-case; ph: digits
 * with country code, no leading zeros; fn/ln: lower-case, no punctuation or spaces; external_id:
 * the contact id) but NOT hashed: the performer hashes with `hashPixelUserData` (WebCrypto is
 * async, `step` is not) before sending.
 */
export type PixelUserData = { em?: string[]; ph?: string[]; fn?: string[]; ln?: string[]; external_id?: string[] };

/** A Conversions API server event (`event_time` in seconds; `event_id` for deduplication). */
export type PixelEvent = {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: "chat";
  user_data: PixelUserData;
  custom_data?: { value?: number; currency?: string };
};

/**
 * What the performer does, in order. Every effect names the block that asked for it.
 * - `send`: send `message` (variables already filled) to the contact on the run's connection.
 * - `presence`: show typing/recording for `durationMs` (≤ 25 s) from now; on the Cloud API it needs
 *   the contact's last inbound message id, which the performer knows.
 * - `set_field`: store `value` (already normalised for the field's type) into the field `key`;
 *   also the writable built-ins `full_name`, `email`, `document`.
 * - `add_tag`/`remove_tag`: by tag name (created when missing, for add).
 * - `ticket`: open, transfer (to `memberId`, or to the queue when null) or close the ticket.
 * - `custom_event`: record a custom event for the contact.
 * - `add_to_cycle`: enrol the contact in the shipping cycle `cycleId` (worker/lib/shipping-cycles.ts).
 * - `notify`: alert members in the app.
 * - `http`: perform the request, then report `http_result` with the same `token`; always report,
 *   a timeout or refusal as `{ ok: false, status: 0 }`.
 * - `pixel`: hash `event.user_data` (hashPixelUserData) and post the event to the pixel.
 * - `start_flow`: start a run of `flowId` (its published version) for the contact.
 * - `set_timer`: arm a timer firing `timer { token }` at `at` (ms); `cancel_timer`: disarm one.
 *   A stale token is ignored by `step` anyway; cancelling only spares storage and an alarm.
 * - `rotary_advance`: add 1 to the rotary counter of the block.
 * - `wait_reply`: the run now waits for the contact's reply (until `deadline`, or forever).
 * - `warning`: something the run skipped (a formula with a missing value, an address refused);
 *   for the run's log, never shown to the contact.
 */
export type FlowEffect =
  | { type: "send"; nodeId: string; message: OutboundMessage }
  | { type: "presence"; nodeId: string; state: "typing" | "recording"; durationMs: number }
  | { type: "set_field"; nodeId: string; key: string; value: string }
  | { type: "add_tag"; nodeId: string; tag: string }
  | { type: "remove_tag"; nodeId: string; tag: string }
  | { type: "ticket"; nodeId: string; action: "open" | "transfer" | "close"; memberId: string | null }
  | { type: "custom_event"; nodeId: string; name: string }
  | { type: "add_to_cycle"; nodeId: string; cycleId: string }
  | { type: "notify"; nodeId: string; memberIds: string[]; text: string }
  | { type: "http"; nodeId: string; token: string; request: HttpRequest }
  | { type: "pixel"; nodeId: string; pixelId: string; accessToken: string; testEventCode: string | null; event: PixelEvent }
  | { type: "start_flow"; nodeId: string; flowId: string }
  | { type: "set_timer"; nodeId: string; at: number; token: string }
  | { type: "cancel_timer"; nodeId: string; token: string }
  | { type: "rotary_advance"; nodeId: string }
  | { type: "wait_reply"; nodeId: string; deadline: number | null }
  | { type: "warning"; nodeId: string; code: FlowWarningCode; message: string };

/**
 * Why a block was skipped or took its failure path: `invalid_value` (a value the field's type
 * refuses), `formula_failed`, `url_refused` (not a public http(s) address), `invalid_answer`
 * (an integration answer that is not JSON), `missing_config` (an incomplete block in a test run),
 * `bad_timezone`.
 */
export type FlowWarningCode = "invalid_value" | "formula_failed" | "url_refused" | "invalid_answer" | "missing_config" | "bad_timezone";

/**
 * The result of one step. `accepted` is false when the event did not concern the run (a stale
 * timer or HTTP token, a reply to a run that is not waiting, or one arriving after the reply
 * deadline): the integrator then routes a reply as it would without a run (keyword, ticket,
 * default flow). `visited`: the blocks entered, in order (stats on the canvas, the test run's
 * highlight).
 */
export type StepResult = { state: FlowRunState; effects: FlowEffect[]; accepted: boolean; visited: string[] };
