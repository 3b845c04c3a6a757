/**
 * The editor's test run (issue 5 "Beyond the anchors"): drives the draft with the SAME engine the
 * ContactSession Durable Object runs (worker/flows), performing its effects in memory instead of
 * I/O. Sends become bubbles; field and tag writes change a pretend contact; timers are kept in a
 * list the panel fires when due (or at once, "fast-forward"); integration requests wait for the
 * tester to pick success or failure. No real contact, message or request is touched. Pure: every
 * function answers a new session.
 */
import {
  applyContactEffects,
  applyRotaryEffects,
  compileFlow,
  initialRunState,
  step,
  type CompiledFlow,
  type FlowContact,
  type FlowContext,
  type FlowEffect,
  type FlowEvent,
  type FlowRunState,
} from "../../../../../worker/flows";
import type { OutboundMessage } from "../../../../../worker/channels/types";
import type { CustomFieldType } from "../../../../../schema/custom-fields";
import type { FlowProblem } from "../../../../../schema/flows";

/** One line of the phone preview. */
export type TranscriptItem =
  | { kind: "bot"; id: number; nodeId: string; message: OutboundMessage }
  | { kind: "user"; id: number; text: string }
  | { kind: "effect"; id: number; nodeId: string; effect: Exclude<FlowEffect, { type: "send" | "set_timer" | "cancel_timer" | "wait_reply" | "rotary_advance" }> }
  | { kind: "end"; id: number; status: "done" | "failed"; message: string | null };

/** A timer the engine armed, to fire at `at` (ms, on the session's clock). */
export type PendingTimer = { token: string; at: number; nodeId: string };

/** A test run in progress. `now` is the session's clock (ms): real time plus fast-forwards. */
export type TestSession = {
  flow: CompiledFlow;
  run: FlowRunState;
  contact: FlowContact;
  rotary: Record<string, number>;
  timers: PendingTimer[];
  /** The integration request waiting for the tester's pick, if any. */
  http: { token: string; nodeId: string; url: string; method: string } | null;
  transcript: TranscriptItem[];
  /** Blocks entered so far, in order (the canvas highlights the last). */
  visited: string[];
  timezone: string;
  fieldTypes: Readonly<Record<string, CustomFieldType>>;
  seq: number;
};

/** The pretend contact of a test run. */
export function testContact(name: string): FlowContact {
  return { id: "test-contact", name, phone: "+5511999990000", email: null, document: null, fields: {}, tags: [] };
}

/** What starting a test run answers: a session, or the problems that keep the draft from running. */
export type TestStart = { ok: true; session: TestSession } | { ok: false; problems: FlowProblem[] };

function context(session: TestSession, now: number): FlowContext {
  return { now, random: Math.random, contact: session.contact, company: { timezone: session.timezone, fieldTypes: session.fieldTypes }, rotary: session.rotary };
}

/** Performs one step's effects in memory; answers the next session. */
function perform(session: TestSession, event: FlowEvent, now: number, userText: string | null): TestSession {
  const result = step(session.flow, session.run, event, context(session, now));
  let seq = session.seq;
  const transcript = [...session.transcript];
  if (userText !== null) transcript.push({ kind: "user", id: ++seq, text: userText });
  let timers = session.timers;
  let http = session.http;
  if (event.kind === "http_result") http = null;
  if (event.kind === "timer") timers = timers.filter((timer) => timer.token !== event.token);
  for (const effect of result.effects) {
    switch (effect.type) {
      case "send":
        transcript.push({ kind: "bot", id: ++seq, nodeId: effect.nodeId, message: effect.message });
        break;
      case "set_timer":
        timers = [...timers.filter((timer) => timer.token !== effect.token), { token: effect.token, at: effect.at, nodeId: effect.nodeId }];
        break;
      case "cancel_timer":
        timers = timers.filter((timer) => timer.token !== effect.token);
        break;
      case "http":
        http = { token: effect.token, nodeId: effect.nodeId, url: effect.request.url, method: effect.request.method };
        transcript.push({ kind: "effect", id: ++seq, nodeId: effect.nodeId, effect });
        break;
      case "wait_reply":
      case "rotary_advance":
        break;
      default:
        transcript.push({ kind: "effect", id: ++seq, nodeId: effect.nodeId, effect });
    }
  }
  const run = result.state;
  if ((run.status === "done" || run.status === "failed") && session.run.status !== run.status) {
    transcript.push({ kind: "end", id: ++seq, status: run.status, message: run.error?.message ?? null });
    timers = [];
    http = null;
  }
  return {
    ...session,
    run,
    contact: applyContactEffects(session.contact, result.effects),
    rotary: applyRotaryEffects(session.rotary, result.effects),
    timers,
    http,
    transcript,
    visited: [...session.visited, ...result.visited],
    seq,
  };
}

/**
 * Compiles the draft (incomplete blocks allowed, as in the editor) and starts a run at its start
 * block. `now` in ms.
 */
export function startTestRun(
  draft: unknown,
  options: { now: number; contact: FlowContact; timezone: string; fieldTypes?: Readonly<Record<string, CustomFieldType>> },
): TestStart {
  const compiled = compileFlow(draft, { allowIncomplete: true });
  if (!compiled.ok) return { ok: false, problems: compiled.problems.filter((problem) => problem.severity !== "warning") };
  const session: TestSession = {
    flow: compiled.flow,
    run: initialRunState(),
    contact: options.contact,
    rotary: {},
    timers: [],
    http: null,
    transcript: [],
    visited: [],
    timezone: options.timezone,
    fieldTypes: options.fieldTypes ?? {},
    seq: 0,
  };
  return { ok: true, session: perform(session, { kind: "start" }, options.now, null) };
}

/** The tester typed `text`, or clicked a button/list row whose id is `replyId` (its title as `text`). */
export function replyTestRun(session: TestSession, text: string, now: number, replyId?: string): TestSession {
  const event: FlowEvent = { kind: "reply", type: "text", body: text, ...(replyId ? { replyId } : {}) };
  return perform(session, event, now, text);
}

/** The earliest armed timer, if any. */
export function nextTimer(session: TestSession): PendingTimer | null {
  return session.timers.reduce<PendingTimer | null>((earliest, timer) => (earliest === null || timer.at < earliest.at ? timer : earliest), null);
}

/** Fires the earliest timer (a delay ending, a response time running out), at its own time or `now` if later. */
export function fireNextTimer(session: TestSession, now: number): TestSession {
  const timer = nextTimer(session);
  if (!timer) return session;
  return perform(session, { kind: "timer", token: timer.token }, Math.max(now, timer.at), null);
}

/** Answers the pending integration request as the tester chose (`{}` as a successful answer's body). */
export function answerHttp(session: TestSession, ok: boolean, now: number): TestSession {
  if (!session.http) return session;
  return perform(session, { kind: "http_result", token: session.http.token, ok, status: ok ? 200 : 500, body: ok ? "{}" : "" }, now, null);
}

/** Whether the run still goes on (waiting for a reply, a timer or an answer). */
export function isRunning(session: TestSession): boolean {
  return session.run.status === "waiting" || session.run.status === "running";
}

/** The block the run is on (null before start or after the end). */
export function currentBlock(session: TestSession): string | null {
  return isRunning(session) ? session.run.nodeId : null;
}
