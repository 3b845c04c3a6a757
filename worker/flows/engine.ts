/**
 * The flow engine (DESIGN.md "The flow engine"; issue 5): a pure interpreter.
 *
 *   compileFlow(document) → CompiledFlow                       once per published version
 *   step(flow, state, event, context) → { state, effects, accepted, visited }
 *
 * No I/O, no clock, no randomness of its own (`context.now`, `context.random`): the same inputs give
 * the same outputs, so the `ContactSession` Durable Object and the editor's test run in the browser
 * drive the very same code. The performer stores the returned state and performs the effects in
 * order (ideally state and effects written together, then effects performed from that outbox, so
 * an alarm retried after a crash does not resend).
 *
 * Behaviour worth knowing:
 * - Loop guard: a step that executes more than MAX_STEPS_WITHOUT_WAIT blocks (or
 *   `context.maxStepsWithoutWait`) without the run pausing fails the run with `loop_guard`.
 * - Timers are matched by token; a timer or HTTP answer with another token is ignored
 *   (`accepted: false`), so duplicated or stale alarms are harmless (alarms are at-least-once).
 * - A reply while the run waits on a delay or an HTTP answer is QUEUED (up to MAX_QUEUED_REPLIES)
 *   and answers the next question the run asks, right when it asks it. This is what a chat user
 *   expects (Typebot keeps the conversation turn-based; answering ahead of the bot's question is
 *   not lost, and the bot's "typing…" sequence is not cut short). Queued replies left when the run
 *   ends are dropped (they are in the conversation anyway).
 * - A reply after the reply deadline whose timer has not fired yet takes the `no_answer` path now
 *   and is not consumed (`accepted: false`): the integrator routes it as a new message.
 * - `start` on a run that is somewhere else restarts it from the start block (its pending timer is
 *   cancelled); `stop` ends it (`endReason: "stopped"`).
 */
import { parseFlow, type AnyBlockNode, type BlockNode, type BlockType, type FlowDocument, type FlowProblem } from "../../schema/flows";
import { EXECUTORS } from "./executors";
import { StepRuntime, type Outcome } from "./runtime";
import {
  MAX_QUEUED_REPLIES,
  MAX_STEPS_WITHOUT_WAIT,
  RUN_STATE_VERSION,
  type FlowContact,
  type FlowContext,
  type FlowEffect,
  type FlowEvent,
  type FlowRunState,
  type HttpResult,
  type HttpWait,
  type InboundReply,
  type ReplyWait,
  type RunEndReason,
  type RunErrorCode,
  type RunWait,
  type StepResult,
  type TimerWait,
} from "./types";

/** A flow ready to run: its blocks by id and its edges by (source, handle). Not JSON; rebuild from the document. */
export type CompiledFlow = {
  readonly document: FlowDocument;
  readonly start: AnyBlockNode;
  node(id: string): AnyBlockNode | undefined;
  /** The block the output `handle` of `nodeId` leads to, or undefined (the run ends there). */
  target(nodeId: string, handle: string): AnyBlockNode | undefined;
};

/** compileFlow's answer. */
export type CompileResult = { ok: true; flow: CompiledFlow; problems: FlowProblem[] } | { ok: false; problems: FlowProblem[] };

/**
 * Parses (migrating older versions) and indexes a flow document. Refuses a document with
 * `error` problems, with no start block, or — unless `allowIncomplete` (the editor's test run of
 * a draft) — with `incomplete` problems. Warnings are answered alongside.
 */
export function compileFlow(input: unknown, options: { allowIncomplete?: boolean } = {}): CompileResult {
  const parsed = parseFlow(input);
  if (!parsed.ok) return parsed;
  const blocking = parsed.problems.filter((problem) => problem.severity === "error" || (problem.severity === "incomplete" && (!options.allowIncomplete || problem.code === "missing_start")));
  const start = parsed.flow.nodes.find((node) => node.type === "start");
  if (blocking.length > 0 || !start) return { ok: false, problems: parsed.problems };
  const nodes = new Map(parsed.flow.nodes.map((node) => [node.id, node]));
  const edges = new Map<string, AnyBlockNode>();
  for (const edge of parsed.flow.edges) {
    const key = `${edge.source}\u0000${edge.sourceHandle}`;
    const target = nodes.get(edge.target);
    // The first edge of an output wins (a second one is reported as `duplicate_output_edge`).
    if (target && !edges.has(key)) edges.set(key, target);
  }
  const flow: CompiledFlow = {
    document: parsed.flow,
    start,
    node: (id) => nodes.get(id),
    target: (nodeId, handle) => edges.get(`${nodeId}\u0000${handle}`),
  };
  return { ok: true, flow, problems: parsed.problems };
}

/** The state of a run that has not started (give it a `start` event). */
export function initialRunState(): FlowRunState {
  return { version: RUN_STATE_VERSION, status: "running", nodeId: null, since: null, wait: null, queue: [], steps: 0, seq: 0, startedAt: null, updatedAt: null, endReason: null, error: null };
}

/** Starts a new run: `step(flow, initialRunState(), { kind: "start" }, context)`. */
export function startRun(flow: CompiledFlow, context: FlowContext): StepResult {
  return step(flow, initialRunState(), { kind: "start" }, context);
}

function copyState(state: FlowRunState): FlowRunState {
  return { ...state, wait: state.wait ? { ...state.wait } : null, queue: state.queue.map((reply) => ({ ...reply })), error: state.error ? { ...state.error } : null };
}

// The executor registry is keyed by type; these generic helpers let TypeScript correlate a node's
// type with its executor without casts (microsoft/TypeScript#47109).
function dispatchEnter<K extends BlockType>(node: BlockNode<K>, run: StepRuntime): Outcome {
  return EXECUTORS[node.type].enter(node, run);
}

function dispatchReply<K extends BlockType>(node: BlockNode<K>, run: StepRuntime, reply: InboundReply, wait: ReplyWait): Outcome {
  const handler = EXECUTORS[node.type].reply;
  return handler ? handler(node, run, reply, wait) : { kind: "wait", wait };
}

function dispatchTimer<K extends BlockType>(node: BlockNode<K>, run: StepRuntime, wait: TimerWait | ReplyWait): Outcome {
  const handler = EXECUTORS[node.type].timer;
  return handler ? handler(node, run, wait) : { kind: "next", handle: "next" };
}

function dispatchHttp<K extends BlockType>(node: BlockNode<K>, run: StepRuntime, result: HttpResult, wait: HttpWait): Outcome {
  const handler = EXECUTORS[node.type].http;
  return handler ? handler(node, run, result, wait) : { kind: "next", handle: "failure" };
}

/** The timer token a wait has armed and not yet consumed, if any. */
function armedToken(wait: RunWait): string | null {
  if (wait.kind === "reply") return wait.token;
  if (wait.kind === "timer") return wait.token;
  return null;
}

/** One step's interpreter. */
class Interpreter {
  readonly visited: string[] = [];
  private executed = 0;
  private readonly limit: number;

  constructor(
    private readonly flow: CompiledFlow,
    private readonly state: FlowRunState,
    private readonly run: StepRuntime,
  ) {
    this.limit = run.context.maxStepsWithoutWait ?? MAX_STEPS_WITHOUT_WAIT;
  }

  /** Applies `event`; answers whether the run took it. */
  handle(event: FlowEvent): boolean {
    const { state } = this;
    switch (event.kind) {
      case "start": {
        this.cancelArmedTimer();
        Object.assign(state, { ...initialRunState(), seq: state.seq, startedAt: this.run.now });
        this.continueWith(this.enter(this.flow.start), this.flow.start.id);
        return true;
      }
      case "stop": {
        if (state.status !== "waiting" && state.status !== "running") return false;
        this.cancelArmedTimer();
        this.finish("stopped");
        return true;
      }
      case "reply": {
        const wait = state.status === "waiting" ? state.wait : null;
        if (!wait) return false;
        const reply: InboundReply = { type: event.type, body: event.body, ...(event.replyId ? { replyId: event.replyId } : {}) };
        if (wait.kind !== "reply") {
          if (state.queue.length >= MAX_QUEUED_REPLIES) return false;
          state.queue.push({ type: reply.type, body: reply.body, replyId: reply.replyId ?? null, at: this.run.now });
          return true;
        }
        const node = this.currentNode(wait.nodeId);
        if (!node) return true;
        if (wait.deadline !== null && this.run.now >= wait.deadline) {
          this.resume(wait, dispatchTimer(node, this.run, wait), node.id);
          return false;
        }
        this.resume(wait, dispatchReply(node, this.run, reply, wait), node.id);
        return true;
      }
      case "timer": {
        const wait = state.status === "waiting" ? state.wait : null;
        if (!wait || wait.kind === "http" || wait.token !== event.token) return false;
        const node = this.currentNode(wait.nodeId);
        if (!node) return true;
        // The fired token is spent: nothing to cancel.
        this.continueWith(dispatchTimer(node, this.run, wait), node.id);
        return true;
      }
      case "http_result": {
        const wait = state.status === "waiting" ? state.wait : null;
        if (!wait || wait.kind !== "http" || wait.token !== event.token) return false;
        const node = this.currentNode(wait.nodeId);
        if (!node) return true;
        this.continueWith(dispatchHttp(node, this.run, { ok: event.ok, status: event.status, body: event.body }, wait), node.id);
        return true;
      }
    }
  }

  /** The block a waiting run is on, or undefined after failing the run with `missing_block`. */
  private currentNode(nodeId: string): AnyBlockNode | undefined {
    const node = this.flow.node(nodeId);
    if (!node) {
      this.cancelArmedTimer();
      this.fail("missing_block", `The run is on block "${nodeId}", which this version of the flow does not have.`, nodeId);
    }
    return node;
  }

  /** Leaves `wait` with `outcome`: its armed timer is cancelled unless the outcome keeps it. */
  private resume(wait: RunWait, outcome: Outcome, nodeId: string): void {
    const token = armedToken(wait);
    const kept = outcome.kind === "wait" && armedToken(outcome.wait) === token;
    if (token !== null && !kept) this.run.emit({ type: "cancel_timer", nodeId, token });
    this.continueWith(outcome, nodeId);
  }

  private cancelArmedTimer(): void {
    const { wait } = this.state;
    const token = wait ? armedToken(wait) : null;
    if (wait && token !== null) this.run.emit({ type: "cancel_timer", nodeId: wait.nodeId, token });
  }

  /** Executes a block (counting it against the loop guard). */
  private enter(node: AnyBlockNode): Outcome {
    if (this.executed >= this.limit) {
      return {
        kind: "fail",
        code: "loop_guard",
        message: `The run went through ${this.limit} blocks without waiting for the contact and was stopped at the ${node.type} block "${node.id}"; the flow probably loops without a waiting block.`,
      };
    }
    this.executed += 1;
    const { state } = this;
    state.steps += 1;
    state.status = "running";
    state.nodeId = node.id;
    state.since = this.run.now;
    state.wait = null;
    this.visited.push(node.id);
    return dispatchEnter(node, this.run);
  }

  /** Follows outcomes until the run waits, ends or fails. */
  private continueWith(first: Outcome, fromNodeId: string): void {
    let outcome = first;
    let current = fromNodeId;
    for (;;) {
      switch (outcome.kind) {
        case "next": {
          const target = this.flow.target(current, outcome.handle);
          if (!target) return this.finish("end");
          outcome = this.enter(target);
          current = target.id;
          break;
        }
        case "wait": {
          const { wait } = outcome;
          this.state.status = "waiting";
          this.state.wait = wait;
          const queued = wait.kind === "reply" ? this.state.queue.shift() : undefined;
          const node = this.flow.node(current);
          if (wait.kind !== "reply" || !queued || !node) return;
          const reply: InboundReply = { type: queued.type, body: queued.body, ...(queued.replyId ? { replyId: queued.replyId } : {}) };
          const answered = dispatchReply(node, this.run, reply, wait);
          const kept = answered.kind === "wait" && armedToken(answered.wait) === wait.token;
          if (wait.token !== null && !kept) this.run.emit({ type: "cancel_timer", nodeId: node.id, token: wait.token });
          outcome = answered;
          break;
        }
        case "end":
          return this.finish(outcome.reason);
        case "fail":
          return this.fail(outcome.code, outcome.message, current);
      }
    }
  }

  private finish(reason: RunEndReason): void {
    Object.assign(this.state, { status: "done", wait: null, queue: [], endReason: reason });
  }

  private fail(code: RunErrorCode, message: string, nodeId: string | null): void {
    Object.assign(this.state, { status: "failed", wait: null, queue: [], error: { code, message, nodeId } });
  }
}

/**
 * Moves a run by one event. Pure: `state` is not modified; the answer carries the next state and
 * the effects to perform, in order. When `accepted` is false and `effects` is empty the state is
 * unchanged. Never throws for a valid CompiledFlow and state.
 */
export function step(flow: CompiledFlow, state: FlowRunState, event: FlowEvent, context: FlowContext): StepResult {
  const next = copyState(state);
  const run = new StepRuntime(context, next);
  const interpreter = new Interpreter(flow, next, run);
  const accepted = interpreter.handle(event);
  if (!accepted && run.effects.length === 0) return { state: copyState(state), effects: [], accepted, visited: [] };
  next.updatedAt = context.now;
  return { state: next, effects: run.effects, accepted, visited: interpreter.visited };
}

/**
 * The contact after the performer applied `effects` (set_field, add_tag, remove_tag): what the
 * editor's test run feeds to the next step instead of storage. `full_name`/`email`/`document`
 * writes update the contact's attributes.
 */
export function applyContactEffects(contact: FlowContact, effects: readonly FlowEffect[]): FlowContact {
  const fields = new Map(Object.entries(contact.fields));
  const tags = new Set(contact.tags);
  let { name, email, document } = contact;
  for (const effect of effects) {
    if (effect.type === "set_field") {
      if (effect.key === "full_name") name = effect.value;
      else if (effect.key === "email") email = effect.value;
      else if (effect.key === "document") document = effect.value;
      else fields.set(effect.key, effect.value);
    } else if (effect.type === "add_tag") tags.add(effect.tag);
    else if (effect.type === "remove_tag") tags.delete(effect.tag);
  }
  return { ...contact, name, email, document, fields: Object.fromEntries(fields), tags: [...tags] };
}

/** The rotary counters after `rotary_advance` effects (the test run's stand-in for storage). */
export function applyRotaryEffects(rotary: Readonly<Record<string, number>>, effects: readonly FlowEffect[]): Record<string, number> {
  const counters = new Map(Object.entries(rotary));
  for (const effect of effects) if (effect.type === "rotary_advance") counters.set(effect.nodeId, (counters.get(effect.nodeId) ?? 0) + 1);
  return Object.fromEntries(counters);
}
