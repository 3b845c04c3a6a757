/**
 * Action blocks: start, action, condition, delay, notification, random, receive, rotary, save,
 * flow connection.
 */
import { evaluateFormula, FormulaError, formulaKeys, parseFormula } from "../../../schema/formula";
import { HANDLES, optionHandle, type ConditionRule } from "../../../schema/flows";
import { next, type Executor, type Outcome, type StepRuntime } from "../runtime";
import { MAX_PRESENCE_MS } from "../types";
import { foldText, retryOrInvalid, waitForReply } from "./waiting";

export const startExecutor: Executor<"start"> = {
  enter: () => next(HANDLES.next),
};

export const actionExecutor: Executor<"action"> = {
  enter(node, run) {
    for (const action of node.data.actions) {
      switch (action.kind) {
        case "add_tag":
          if (action.tag) run.addTag(node.id, action.tag);
          break;
        case "remove_tag":
          if (action.tag) run.removeTag(node.id, action.tag);
          break;
        case "open_ticket":
          run.emit({ type: "ticket", nodeId: node.id, action: "open", memberId: null });
          break;
        case "transfer_ticket":
          run.emit({ type: "ticket", nodeId: node.id, action: "transfer", memberId: action.memberId });
          break;
        case "close_ticket":
          run.emit({ type: "ticket", nodeId: node.id, action: "close", memberId: null });
          break;
        case "custom_event":
          if (action.name) run.emit({ type: "custom_event", nodeId: node.id, name: action.name });
          break;
        case "add_to_cycle":
          if (action.cycleId) run.emit({ type: "add_to_cycle", nodeId: node.id, cycleId: action.cycleId });
          break;
      }
    }
    return next(HANDLES.next);
  },
};

// ---------------------------------------------------------------------------------------------
// Condition
// ---------------------------------------------------------------------------------------------

const WEEKDAYS: ReadonlyMap<string, number> = new Map([
  ["Sun", 0],
  ["Mon", 1],
  ["Tue", 2],
  ["Wed", 3],
  ["Thu", 4],
  ["Fri", 5],
  ["Sat", 6],
]);

/** The day of the week (0 = Sunday) and minutes since midnight of `now` in `timeZone`. */
export function zonedClock(now: number, timeZone: string): { weekday: number; minutes: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "numeric", minute: "numeric", hourCycle: "h23" }).formatToParts(new Date(now));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { weekday: WEEKDAYS.get(part("weekday")) ?? 0, minutes: Number(part("hour")) * 60 + Number(part("minute")) };
}

/** A decimal number as text ("3", "-2.5", "2,5"), or null. */
function numeric(text: string): number | null {
  const value = text.trim();
  const decimal = value.includes(".") ? value : value.replace(",", ".");
  return /^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(decimal) ? Number(decimal) : null;
}

function minutesOf(clock: string): number {
  const [hours = "0", minutes = "0"] = clock.split(":");
  return Number(hours) * 60 + Number(minutes);
}

/** Whether one rule holds for the contact now (see conditionRuleSchema for the semantics). */
export function ruleHolds(rule: ConditionRule, run: StepRuntime): boolean {
  switch (rule.kind) {
    case "tag":
      return rule.op === "has" ? run.hasTag(rule.tag) : !run.hasTag(rule.tag);
    case "weekday":
      return rule.days.includes(zonedClock(run.now, run.timezone()).weekday);
    case "time": {
      const now = zonedClock(run.now, run.timezone()).minutes;
      const from = minutesOf(rule.from);
      const to = minutesOf(rule.to);
      return from <= to ? now >= from && now < to : now >= from || now < to;
    }
    case "field": {
      const actual = run.value(rule.key) ?? "";
      const expected = run.render(rule.value);
      const a = numeric(actual);
      const b = numeric(expected);
      const bothNumbers = a !== null && b !== null;
      switch (rule.op) {
        case "empty":
          return actual.trim() === "";
        case "not_empty":
          return actual.trim() !== "";
        case "equals":
          return bothNumbers ? a === b : foldText(actual) === foldText(expected);
        case "not_equals":
          return bothNumbers ? a !== b : foldText(actual) !== foldText(expected);
        case "contains":
          return foldText(actual).includes(foldText(expected));
        case "not_contains":
          return !foldText(actual).includes(foldText(expected));
        case "greater":
          if (actual.trim() === "") return false;
          return bothNumbers ? a > b : foldText(actual) > foldText(expected);
        case "less":
          if (actual.trim() === "") return false;
          return bothNumbers ? a < b : foldText(actual) < foldText(expected);
      }
    }
  }
}

export const conditionExecutor: Executor<"condition"> = {
  enter(node, run) {
    const { match, rules } = node.data;
    if (run.timezone() !== run.context.company.timezone && rules.some((rule) => rule.kind === "weekday" || rule.kind === "time")) {
      run.warn(node.id, "bad_timezone", `The company's time zone "${run.context.company.timezone}" is unknown; UTC was used.`);
    }
    const holds = match === "all" ? rules.every((rule) => ruleHolds(rule, run)) : rules.some((rule) => ruleHolds(rule, run));
    return next(holds ? HANDLES.true : HANDLES.false);
  },
};

// ---------------------------------------------------------------------------------------------
// Delay
// ---------------------------------------------------------------------------------------------

function armDelay(run: StepRuntime, nodeId: string, until: number, endsAt: number, phase: "presence" | "end"): Outcome {
  const token = run.token(nodeId);
  run.emit({ type: "set_timer", nodeId, at: until, token });
  return { kind: "wait", wait: { kind: "timer", nodeId, until, endsAt, token, phase } };
}

/**
 * Waits `seconds`. The indicator covers the END of the wait, at most 25 s (the Cloud API's typing
 * indicator lasts ≤ 25 s and needs an inbound message id): a wait of ≤ 25 s shows it at once for
 * the whole wait; a longer one arms a first timer at end − 25 s, which shows it, then the end timer.
 * A reply arriving meanwhile is queued by the engine, not lost (see engine.ts).
 */
export const delayExecutor: Executor<"delay"> = {
  enter(node, run) {
    const duration = node.data.seconds * 1000;
    const endsAt = run.now + duration;
    const indicator = node.data.indicator;
    if (indicator === "none") return armDelay(run, node.id, endsAt, endsAt, "end");
    if (duration <= MAX_PRESENCE_MS) {
      run.emit({ type: "presence", nodeId: node.id, state: indicator, durationMs: duration });
      return armDelay(run, node.id, endsAt, endsAt, "end");
    }
    return armDelay(run, node.id, endsAt - MAX_PRESENCE_MS, endsAt, "presence");
  },
  timer(node, run, wait) {
    if (wait.kind !== "timer" || wait.phase === "end") return next(HANDLES.next);
    const left = wait.endsAt - run.now;
    // A presence alarm delivered late (after a restart) shows nothing stale and does not wait twice.
    if (left <= 0) return next(HANDLES.next);
    if (node.data.indicator !== "none") run.emit({ type: "presence", nodeId: node.id, state: node.data.indicator, durationMs: Math.min(left, MAX_PRESENCE_MS) });
    return armDelay(run, node.id, wait.endsAt, wait.endsAt, "end");
  },
};

// ---------------------------------------------------------------------------------------------
// Notification, random, rotary, flow connection
// ---------------------------------------------------------------------------------------------

export const notificationExecutor: Executor<"notification"> = {
  enter(node, run) {
    if (node.data.memberIds.length > 0) run.emit({ type: "notify", nodeId: node.id, memberIds: [...node.data.memberIds], text: run.render(node.data.message) });
    return next(HANDLES.next);
  },
};

/** Picks an output with probability weight / total weight, using the context's random(). */
export const randomExecutor: Executor<"random"> = {
  enter(node, run) {
    const { outputs } = node.data;
    const total = outputs.reduce((sum, output) => sum + output.weight, 0);
    let point = run.random() * total;
    for (const output of outputs) {
      point -= output.weight;
      if (point < 0) return next(optionHandle(output.id));
    }
    const last = outputs.at(-1);
    return last ? next(optionHandle(last.id)) : { kind: "end", reason: "end" };
  },
};

/** Output number (counter mod outputs) for this contact, then `rotary_advance`. */
export const rotaryExecutor: Executor<"rotary"> = {
  enter(node, run) {
    const { outputs } = node.data;
    if (outputs.length === 0) return { kind: "end", reason: "end" };
    const chosen = outputs[run.rotaryCount(node.id) % outputs.length];
    run.advanceRotary(node.id);
    return chosen ? next(optionHandle(chosen.id)) : { kind: "end", reason: "end" };
  },
};

export const flowConnectionExecutor: Executor<"flow_connection"> = {
  enter(node, run) {
    if (!node.data.flowId) {
      run.warn(node.id, "missing_config", "No flow was chosen to continue in.");
      return { kind: "end", reason: "end" };
    }
    run.emit({ type: "start_flow", nodeId: node.id, flowId: node.data.flowId });
    return { kind: "end", reason: "flow_connection" };
  },
};

// ---------------------------------------------------------------------------------------------
// Receive, save
// ---------------------------------------------------------------------------------------------

/**
 * Sends the question (when there is one) and waits. With a field: the answer must normalise for
 * the field's type (schema/validation/contacts.ts normalizeFieldValue), and is saved; without, any
 * reply is `answered`.
 */
export const receiveExecutor: Executor<"receive"> = {
  enter(node, run) {
    if (node.data.message.trim()) run.emit({ type: "send", nodeId: node.id, message: { type: "text", body: run.render(node.data.message) } });
    return waitForReply(run, node.id, node.data.responseTimeSeconds);
  },
  reply(node, run, reply, wait) {
    if (!node.data.fieldKey) return next(HANDLES.answered);
    const saved = run.setField(node.id, node.data.fieldKey, reply.body);
    return saved.ok ? next(HANDLES.answered) : retryOrInvalid(run, node.id, node.data, wait);
  },
  timer: () => next(HANDLES.noAnswer),
};

/**
 * Sets the field to the rendered value, or to the formula's result (numbers and numeric fields,
 * schema/formula.ts). A value the field's type refuses, or a formula missing a value, sets nothing
 * and emits a `warning`; the run goes on.
 */
export const saveExecutor: Executor<"save"> = {
  enter(node, run) {
    const { fieldKey, mode, value } = node.data;
    if (!fieldKey) {
      run.warn(node.id, "missing_config", "No field was chosen.");
      return next(HANDLES.next);
    }
    let raw: string | number = run.render(value);
    if (mode === "formula") {
      try {
        const tree = parseFormula(value);
        const values = new Map<string, number>();
        for (const key of formulaKeys(tree)) {
          const number = numeric(run.value(key) ?? "");
          if (number !== null) values.set(key, number);
        }
        const result = evaluateFormula(tree, values);
        if (!result.ok) {
          run.warn(node.id, "formula_failed", result.key ? `The formula has no value for {{${result.key}}}.` : `The formula failed (${result.code}).`);
          return next(HANDLES.next);
        }
        raw = result.value;
      } catch (error) {
        if (!(error instanceof FormulaError)) throw error;
        run.warn(node.id, "formula_failed", error.message);
        return next(HANDLES.next);
      }
    }
    const saved = run.setField(node.id, fieldKey, raw);
    if (!saved.ok) run.warn(node.id, "invalid_value", `The value does not fit the field {{${fieldKey}}} (${saved.reason}).`);
    return next(HANDLES.next);
  },
};
