/**
 * Checking a flow document: what the API answers when a draft is saved or a version published,
 * what the editor shows as markers, what the engine compiles. Pure; never throws.
 *
 * Every problem names its block (`nodeId`) or edge (`edgeId`) and has a severity:
 * - `error`: the document cannot be stored (not a document, a newer version, duplicate ids, an
 *   unknown block type, data not matching its type's schema, an edge from or to no block);
 * - `incomplete`: a draft may be saved but not published (missing or several start blocks, a block
 *   missing its message/media/options, an edge from an output the block does not have, two edges
 *   from one output, an edge into the start block);
 * - `warning`: worth a marker, never refused (a required output left unconnected, a block no run
 *   can reach, a loop with no waiting block in it: legal, but the engine's loop guard stops a run
 *   that goes round it MAX_STEPS_WITHOUT_WAIT times).
 */
import { blockNodeSchema, isBlockType, type AnyBlockNode } from "./blocks";
import { flowDocumentSchema, migrateFlow, type FlowDocument, type FlowEdge } from "./document";
import { blockIssues, blockOutputs, blockWaits, BLOCKS } from "./registry";

export type FlowProblemSeverity = "error" | "incomplete" | "warning";

/** Stable problem codes (the API's `fields`/problems list; the editor localises by code). */
export type FlowProblemCode =
  | "invalid_document"
  | "unsupported_version"
  | "duplicate_node_id"
  | "unknown_block_type"
  | "invalid_block_data"
  | "duplicate_edge_id"
  | "unknown_edge_source"
  | "unknown_edge_target"
  | "missing_start"
  | "multiple_starts"
  | "incomplete_block"
  | "unknown_handle"
  | "duplicate_output_edge"
  | "edge_into_start"
  | "unconnected_output"
  | "unreachable_block"
  | "loop_without_wait";

/**
 * One problem. `path` is into the block's data (`responses.0.title`) or the document (`edges.3`);
 * `detail` the block issue's or schema's own code (`empty_message`, `too_long`); `message` English.
 */
export type FlowProblem = {
  severity: FlowProblemSeverity;
  code: FlowProblemCode;
  message: string;
  nodeId?: string;
  edgeId?: string;
  path?: string;
  detail?: string;
};

/** parseFlow's answer: `ok` when no problem is an `error` (the document may be stored). */
export type FlowParseResult = { ok: true; flow: FlowDocument; problems: FlowProblem[] } | { ok: false; problems: FlowProblem[] };

function blockName(node: { id: string; type: string }): string {
  return `${node.type.replace("_", " ")} block "${node.id}"`;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join(".");
}

/**
 * Migrates (migrateFlow), then checks `input`, collecting every problem rather than stopping at
 * the first. Answers the typed document when it can be stored.
 */
export function parseFlow(input: unknown): FlowParseResult {
  const migrated = migrateFlow(input);
  if (!migrated.ok) return { ok: false, problems: [{ severity: "error", code: migrated.code, message: migrated.message }] };
  const outer = flowDocumentSchema.safeParse(migrated.doc);
  if (!outer.success) {
    return {
      ok: false,
      problems: outer.error.issues.map((issue) => ({
        severity: "error",
        code: "invalid_document",
        path: pathText(issue.path),
        detail: issue.message,
        message: `The flow document is malformed at "${pathText(issue.path)}": ${issue.message}.`,
      })),
    };
  }
  const problems: FlowProblem[] = [];
  const nodes: AnyBlockNode[] = [];
  const ids = new Set<string>();
  for (const raw of outer.data.nodes) {
    if (ids.has(raw.id)) {
      problems.push({ severity: "error", code: "duplicate_node_id", nodeId: raw.id, message: `Two blocks have the id "${raw.id}".` });
      continue;
    }
    ids.add(raw.id);
    if (!isBlockType(raw.type)) {
      problems.push({ severity: "error", code: "unknown_block_type", nodeId: raw.id, detail: raw.type, message: `Block "${raw.id}" has an unknown type "${raw.type}".` });
      continue;
    }
    const parsed = blockNodeSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = pathText(issue.path[0] === "data" ? issue.path.slice(1) : issue.path);
        problems.push({
          severity: "error",
          code: "invalid_block_data",
          nodeId: raw.id,
          path,
          detail: issue.message,
          message: `The ${blockName(raw)} is invalid at "${path}": ${issue.message}.`,
        });
      }
      continue;
    }
    nodes.push(parsed.data);
  }

  const byId = new Map(nodes.map((node) => [node.id, node]));
  const edges: FlowEdge[] = [];
  const edgeIds = new Set<string>();
  for (const edge of outer.data.edges) {
    if (edgeIds.has(edge.id)) {
      problems.push({ severity: "error", code: "duplicate_edge_id", edgeId: edge.id, message: `Two edges have the id "${edge.id}".` });
      continue;
    }
    edgeIds.add(edge.id);
    // An edge touching a block that failed to parse is not reported again.
    if (!ids.has(edge.source)) problems.push({ severity: "error", code: "unknown_edge_source", edgeId: edge.id, message: `Edge "${edge.id}" leaves a block that does not exist ("${edge.source}").` });
    else if (!ids.has(edge.target)) problems.push({ severity: "error", code: "unknown_edge_target", edgeId: edge.id, nodeId: edge.source, message: `Edge "${edge.id}" from the ${edge.source} block enters a block that does not exist ("${edge.target}").` });
    else edges.push(edge);
  }
  if (problems.some((problem) => problem.severity === "error")) return { ok: false, problems };

  const flow: FlowDocument = { version: outer.data.version, nodes, edges, ...(outer.data.viewport ? { viewport: outer.data.viewport } : {}) };
  problems.push(...graphProblems(flow, byId));
  return { ok: true, flow, problems };
}

/** Every problem of `input` (see parseFlow); an empty list for a flow ready to publish. */
export function validateFlow(input: unknown): FlowProblem[] {
  return parseFlow(input).problems;
}

/** Whether a flow with these problems may be published (no `error`, no `incomplete`). */
export function isPublishable(problems: readonly FlowProblem[]): boolean {
  return problems.every((problem) => problem.severity === "warning");
}

function graphProblems(flow: FlowDocument, byId: ReadonlyMap<string, AnyBlockNode>): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const starts = flow.nodes.filter((node) => node.type === "start");
  if (starts.length === 0) problems.push({ severity: "incomplete", code: "missing_start", message: "The flow has no start block." });
  for (const extra of starts.slice(1)) problems.push({ severity: "incomplete", code: "multiple_starts", nodeId: extra.id, message: `The flow has more than one start block ("${extra.id}").` });

  for (const node of flow.nodes) {
    for (const issue of blockIssues(node)) {
      problems.push({ severity: "incomplete", code: "incomplete_block", nodeId: node.id, path: issue.path, detail: issue.code, message: `The ${blockName(node)}: ${issue.message}` });
    }
  }

  const used = new Set<string>();
  const successors = new Map<string, string[]>();
  for (const edge of flow.edges) {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source || !target) continue;
    if (!BLOCKS[target.type].hasInput) problems.push({ severity: "incomplete", code: "edge_into_start", edgeId: edge.id, nodeId: target.id, message: `Edge "${edge.id}" enters the ${blockName(target)}, which has no input.` });
    if (!blockOutputs(source).some((output) => output.id === edge.sourceHandle)) {
      problems.push({ severity: "incomplete", code: "unknown_handle", edgeId: edge.id, nodeId: source.id, detail: edge.sourceHandle, message: `Edge "${edge.id}" leaves the ${blockName(source)} by an output it does not have ("${edge.sourceHandle}").` });
      continue;
    }
    const key = `${edge.source}\u0000${edge.sourceHandle}`;
    if (used.has(key)) {
      problems.push({ severity: "incomplete", code: "duplicate_output_edge", edgeId: edge.id, nodeId: source.id, detail: edge.sourceHandle, message: `The output "${edge.sourceHandle}" of the ${blockName(source)} is connected more than once.` });
      continue;
    }
    used.add(key);
    successors.set(source.id, [...(successors.get(source.id) ?? []), target.id]);
  }

  for (const node of flow.nodes) {
    for (const output of blockOutputs(node)) {
      if (output.required && !used.has(`${node.id}\u0000${output.id}`)) {
        problems.push({ severity: "warning", code: "unconnected_output", nodeId: node.id, detail: output.id, message: `The output "${output.label}" of the ${blockName(node)} is not connected.` });
      }
    }
  }

  const start = starts[0];
  if (start) {
    const reached = new Set<string>([start.id]);
    const queue = [start.id];
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      for (const next of successors.get(id) ?? []) {
        if (!reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
      }
    }
    for (const node of flow.nodes) {
      if (!reached.has(node.id)) problems.push({ severity: "warning", code: "unreachable_block", nodeId: node.id, message: `No run can reach the ${blockName(node)}.` });
    }
  }

  const loop = loopWithoutWait(flow.nodes, successors);
  if (loop.length > 0) {
    const shown = loop.slice(0, 5).map((id) => `"${id}"`).join(", ");
    problems.push({
      severity: "warning",
      code: "loop_without_wait",
      nodeId: loop[0],
      message: `Blocks ${shown}${loop.length > 5 ? "…" : ""} form a loop that never waits for the contact; a run going round it is stopped by the loop guard.`,
    });
  }
  return problems;
}

/**
 * The blocks on (or between) cycles of the graph restricted to blocks that never wait: blocks
 * without predecessors, then without successors, are peeled off until none is left to peel.
 */
function loopWithoutWait(nodes: readonly AnyBlockNode[], successors: ReadonlyMap<string, string[]>): string[] {
  const inside = new Set(nodes.filter((node) => !blockWaits(node)).map((node) => node.id));
  const out = new Map<string, Set<string>>();
  const into = new Map<string, Set<string>>();
  for (const id of inside) {
    out.set(id, new Set());
    into.set(id, new Set());
  }
  for (const id of inside) {
    for (const next of successors.get(id) ?? []) {
      if (!inside.has(next)) continue;
      out.get(id)?.add(next);
      into.get(next)?.add(id);
    }
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of [...inside]) {
      if ((into.get(id)?.size ?? 0) === 0 || (out.get(id)?.size ?? 0) === 0) {
        inside.delete(id);
        for (const next of out.get(id) ?? []) into.get(next)?.delete(id);
        for (const previous of into.get(id) ?? []) out.get(previous)?.delete(id);
        changed = true;
      }
    }
  }
  return nodes.filter((node) => inside.has(node.id)).map((node) => node.id);
}
