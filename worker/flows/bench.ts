/**
 * A synthetic flow for the engine's benchmark (`npm run bench:flows`, issue 5 "Benchmark": engine
 * steps per second on a 200-block flow). Pure; runs in workerd, Node or a browser.
 */
import { FLOW_VERSION, HANDLES, type AnyBlockNode, type FlowDocument, type FlowEdge } from "../../schema/flows";
import { compileFlow, startRun } from "./engine";
import type { FlowContext } from "./types";

/**
 * A linear flow of `blocks` blocks (≥ 2): a start block, then text (with `{{first_name}}`), save,
 * condition (both outputs onward) and action (add a tag) blocks in turn, ending on a text block. It never waits, so a
 * single `start` step runs it to the end. Ids: `b0` (start) … `b<blocks-1>`.
 */
export function buildLinearFlow(blocks: number): FlowDocument {
  const count = Math.max(2, Math.floor(blocks));
  const nodes: AnyBlockNode[] = [];
  const edges: FlowEdge[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `b${i}`;
    const position = { x: 0, y: i * 120 };
    const kind = i === 0 ? -1 : i === count - 1 ? 1 : i % 4;
    if (kind === -1) nodes.push({ id, type: "start", position, data: { description: "" } });
    else if (kind === 1) nodes.push({ id, type: "text", position, data: { description: "", message: `Hello {{first_name}}, step ${i}` } });
    else if (kind === 2) nodes.push({ id, type: "save", position, data: { description: "", fieldKey: "score", mode: "value", value: String(i) } });
    else if (kind === 3) nodes.push({ id, type: "condition", position, data: { description: "", match: "all", rules: [{ kind: "field", key: "score", op: "not_empty", value: "" }] } });
    else nodes.push({ id, type: "action", position, data: { description: "", actions: [{ kind: "add_tag", tag: "bench" }] } });
    if (i === 0) continue;
    const source = `b${i - 1}`;
    const previousIsCondition = (i - 1) % 4 === 3;
    edges.push({ id: `e${i}`, source, sourceHandle: previousIsCondition ? HANDLES.true : HANDLES.next, target: id });
    if (previousIsCondition) edges.push({ id: `e${i}f`, source, sourceHandle: HANDLES.false, target: id });
  }
  return { version: FLOW_VERSION, nodes, edges };
}

/** A context for synthetic runs (fixed clock and randomness, a contact with a `score` number field). */
export function syntheticContext(now = Date.UTC(2025, 0, 6, 12)): FlowContext {
  return {
    now,
    random: () => 0.5,
    contact: { id: "contact-bench", name: "Ana Souza", phone: "+5511999990000", email: "ana@example.com", document: null, fields: {}, tags: [] },
    company: { timezone: "America/Sao_Paulo", fieldTypes: { score: "number" } },
    rotary: {},
  };
}

/** What runSyntheticFlow measured: blocks executed, effects produced, wall time (ms) and blocks per second. */
export type SyntheticRunReport = { blocks: number; iterations: number; steps: number; effects: number; ms: number; stepsPerSecond: number };

/**
 * Compiles `buildLinearFlow(blocks)` once, then runs it `iterations` times from start to end and
 * reports engine steps (blocks executed) per second. Throws when the flow does not compile or a
 * run does not finish (a bug, not a measurement).
 */
export function runSyntheticFlow(blocks = 200, iterations = 100): SyntheticRunReport {
  const compiled = compileFlow(buildLinearFlow(blocks));
  if (!compiled.ok) throw new Error(`The synthetic flow does not compile: ${compiled.problems.map((p) => p.message).join("; ")}`);
  const context = syntheticContext();
  let steps = 0;
  let effects = 0;
  const started = performance.now();
  for (let i = 0; i < iterations; i += 1) {
    const result = startRun(compiled.flow, context);
    if (result.state.status !== "done") throw new Error(`The synthetic run ended ${result.state.status}: ${result.state.error?.message ?? ""}`);
    steps += result.state.steps;
    effects += result.effects.length;
  }
  const ms = performance.now() - started;
  return { blocks, iterations, steps, effects, ms, stepsPerSecond: ms > 0 ? Math.round((steps / ms) * 1000) : steps };
}
