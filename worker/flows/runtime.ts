/**
 * What an executor sees during one step: the clock, the contact's variables (the context's values
 * with this step's own writes on top), the effects list, tokens, and the outcome type executors
 * return. One `StepRuntime` lives for one `step` call.
 *
 * Writes (set_field, tags, rotary counters) are visible to the following blocks of the same step;
 * they are not kept in the run state: the performer applies the effects before the next step, and
 * the next step's context carries them (the browser's test run uses `applyContactEffects`). So a
 * value a member edits while a run waits is what the run sees next.
 */
import type { BlockNode, BlockType } from "../../schema/flows";
import type { CustomFieldType } from "../../schema/custom-fields";
import { renderTemplate } from "../../schema/template";
import { BUILT_IN_FIELDS, normalizeFieldValue } from "../../schema/validation/contacts";
import type { FlowContext, FlowEffect, FlowRunState, FlowWarningCode, HttpResult, InboundReply, ReplyWait, RunErrorCode, RunWait, TimerWait, HttpWait } from "./types";

/**
 * What an executor decides: follow the output `handle`, wait (the run pauses), end the run (an
 * output with no edge ends it too), or fail it.
 */
export type Outcome =
  | { kind: "next"; handle: string }
  | { kind: "wait"; wait: RunWait }
  | { kind: "end"; reason: "end" | "flow_connection" }
  | { kind: "fail"; code: RunErrorCode; message: string };

/** Follow `handle`. */
export function next(handle: string): Outcome {
  return { kind: "next", handle };
}

const BUILT_IN_TYPES: ReadonlyMap<string, CustomFieldType> = new Map(BUILT_IN_FIELDS.map((field) => [field.key, field.type]));
/** Built-ins a run may write (contact attributes); the others are computed from the conversation. */
const WRITABLE_BUILT_INS: ReadonlySet<string> = new Set(["full_name", "email", "document"]);

/** `name` split into a first name and the rest. */
export function splitName(name: string): { first: string; last: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return { first: words[0] ?? "", last: words.slice(1).join(" ") };
}

/** The per-step view executors work with. */
export class StepRuntime {
  readonly effects: FlowEffect[] = [];
  private readonly vars = new Map<string, string>();
  private readonly tags: Set<string>;
  private readonly rotary = new Map<string, number>();
  private zone: string | null = null;

  constructor(
    readonly context: FlowContext,
    readonly state: FlowRunState,
  ) {
    const { contact } = context;
    const { first, last } = splitName(contact.name);
    this.vars.set("full_name", contact.name);
    this.vars.set("first_name", first);
    this.vars.set("last_name", last);
    if (contact.email) this.vars.set("email", contact.email);
    if (contact.phone) this.vars.set("phone", contact.phone);
    if (contact.document) this.vars.set("document", contact.document);
    for (const [key, value] of Object.entries(contact.fields)) this.vars.set(key, value);
    this.tags = new Set(contact.tags);
    for (const [nodeId, count] of Object.entries(context.rotary)) this.rotary.set(nodeId, count);
  }

  /** Now, ms UTC. */
  get now(): number {
    return this.context.now;
  }

  emit(effect: FlowEffect): void {
    this.effects.push(effect);
  }

  warn(nodeId: string, code: FlowWarningCode, message: string): void {
    this.emit({ type: "warning", nodeId, code, message });
  }

  /** A token unique in the run (timers, HTTP requests, pixel event ids): `<nodeId>#<seq>`. */
  token(nodeId: string): string {
    this.state.seq += 1;
    return `${nodeId}#${this.state.seq}`;
  }

  /** A variable's value (built-in or custom field, this step's writes included), or undefined. */
  value(key: string): string | undefined {
    return this.vars.get(key);
  }

  /** The type of the field `key`: the company's custom field, else a built-in; undefined when unknown. */
  fieldType(key: string): CustomFieldType | undefined {
    const types = this.context.company.fieldTypes;
    return Object.hasOwn(types, key) ? types[key] : BUILT_IN_TYPES.get(key);
  }

  /** `text` with `{{variables}}` filled (schema/template.ts). */
  render(text: string): string {
    return renderTemplate(text, this.vars);
  }

  /** `text` with variables URI-encoded (URLs). */
  renderUrl(text: string): string {
    return renderTemplate(text, new Map([...this.vars].map(([key, value]) => [key, encodeURIComponent(value)])));
  }

  /** `text` with variables escaped for the inside of a JSON string (JSON bodies). */
  renderJson(text: string): string {
    return renderTemplate(text, new Map([...this.vars].map(([key, value]) => [key, JSON.stringify(value).slice(1, -1)])));
  }

  /**
   * Normalises `raw` for the field's type (schema/validation/contacts.ts; dates read in the
   * company's time zone) and, when valid, emits `set_field` and makes the value visible to the
   * rest of the step. Unknown fields are treated as text. Refuses computed built-ins.
   */
  setField(nodeId: string, key: string, raw: string | number): { ok: true; value: string } | { ok: false; reason: string } {
    if (BUILT_IN_TYPES.has(key) && !WRITABLE_BUILT_INS.has(key)) return { ok: false, reason: "read_only" };
    const result = normalizeFieldValue(this.fieldType(key) ?? "text", raw, this.timezone());
    if (!result.ok) return result;
    this.vars.set(key, result.value);
    if (key === "full_name") {
      const { first, last } = splitName(result.value);
      this.vars.set("first_name", first);
      this.vars.set("last_name", last);
    }
    this.emit({ type: "set_field", nodeId, key, value: result.value });
    return { ok: true, value: result.value };
  }

  hasTag(tag: string): boolean {
    return this.tags.has(tag);
  }

  addTag(nodeId: string, tag: string): void {
    this.tags.add(tag);
    this.emit({ type: "add_tag", nodeId, tag });
  }

  removeTag(nodeId: string, tag: string): void {
    this.tags.delete(tag);
    this.emit({ type: "remove_tag", nodeId, tag });
  }

  /** The rotary counter of a block (how many contacts it has handed out so far). */
  rotaryCount(nodeId: string): number {
    return this.rotary.get(nodeId) ?? 0;
  }

  advanceRotary(nodeId: string): void {
    this.rotary.set(nodeId, this.rotaryCount(nodeId) + 1);
    this.emit({ type: "rotary_advance", nodeId });
  }

  /** The company's time zone, or UTC when it is not one Intl knows (checked once per step: Intl formatters are costly). */
  timezone(): string {
    if (this.zone === null) {
      const zone = this.context.company.timezone;
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        this.zone = zone;
      } catch {
        this.zone = "UTC";
      }
    }
    return this.zone;
  }

  /** A random number in [0, 1) from the context (clamped, so a bad injected source cannot break a pick). */
  random(): number {
    const value = this.context.random();
    return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1 - Number.EPSILON) : 0;
  }
}

/**
 * One block type's behaviour. `enter` runs when the run reaches the block; the others when the
 * run, waiting on the block, gets the matching event. A block that never waits has only `enter`.
 */
export type Executor<K extends BlockType> = {
  enter(node: BlockNode<K>, run: StepRuntime): Outcome;
  reply?(node: BlockNode<K>, run: StepRuntime, reply: InboundReply, wait: ReplyWait): Outcome;
  timer?(node: BlockNode<K>, run: StepRuntime, wait: TimerWait | ReplyWait): Outcome;
  http?(node: BlockNode<K>, run: StepRuntime, result: HttpResult, wait: HttpWait): Outcome;
};

/** The executor of every block type, correlated by key. */
export type ExecutorRegistry = { [K in BlockType]: Executor<K> };
