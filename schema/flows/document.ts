/**
 * The flow document: the graph as @xyflow/react saves it (nodes with id, type, position and data;
 * edges with id, source, sourceHandle, target), plus a `version` (STYLE.md habit 9: a change of
 * shape ships a migration function and a test).
 *
 * Version history:
 * - 0: unversioned, as `ReactFlowInstance.toObject()` gives it: `{ nodes, edges, viewport }`, edges
 *   of single-output blocks with `sourceHandle: null`, nodes carrying the canvas' UI state
 *   (`selected`, `dragging`, `measured`, `width`, `height`), and the spec's two-word type names
 *   (`"flow connection"`, `"facebook pixel"`).
 * - 1 (current): `version: 1`; every edge names its source handle (`next` for single outputs); UI
 *   state dropped; type names in snake case (`flow_connection`, `facebook_pixel`).
 */
import { z } from "zod";
import { nodeIdSchema, positionSchema, type AnyBlockNode } from "./blocks";

/** The current document version. */
export const FLOW_VERSION = 1;
/** Most blocks in one flow. */
export const MAX_FLOW_BLOCKS = 1000;
/** Most edges in one flow. */
export const MAX_FLOW_EDGES = 4000;

/** An edge: leaves `source` by its output `sourceHandle`, enters `target`. */
export const flowEdgeSchema = z.object({
  id: z.string().min(1, { error: "required" }).max(128, { error: "too_long" }),
  source: nodeIdSchema,
  sourceHandle: z.string().min(1).max(100, { error: "too_long" }),
  target: nodeIdSchema,
  targetHandle: z.string().max(100, { error: "too_long" }).nullish(),
});
export type FlowEdge = z.output<typeof flowEdgeSchema>;

/** A node before its data is checked against its type's schema (see validateFlow). */
export const rawFlowNodeSchema = z.object({
  id: nodeIdSchema,
  type: z.string().min(1, { error: "required" }).max(40, { error: "too_long" }),
  position: positionSchema,
  /** The block's data; a node saved without any is read as `{}` (the type's defaults). */
  data: z.record(z.string(), z.unknown()).default({}),
});

/** The canvas' viewport, kept so the editor reopens where the member left it. */
export const viewportSchema = z.object({ x: z.number().finite(), y: z.number().finite(), zoom: z.number().finite().positive() });

/** The current document's outer shape; node data is checked per type by validateFlow. */
export const flowDocumentSchema = z.object({
  version: z.literal(FLOW_VERSION),
  nodes: z.array(rawFlowNodeSchema).max(MAX_FLOW_BLOCKS, { error: "too_many" }),
  edges: z.array(flowEdgeSchema).max(MAX_FLOW_EDGES, { error: "too_many" }),
  viewport: viewportSchema.optional(),
});
/** A document as the editor sends it (current version, data unchecked). */
export type FlowDocumentInput = z.input<typeof flowDocumentSchema>;

/** A parsed, current document: every node's data typed by its block type. */
export type FlowDocument = {
  version: typeof FLOW_VERSION;
  nodes: AnyBlockNode[];
  edges: FlowEdge[];
  viewport?: { x: number; y: number; zoom: number };
};

/** A plain JSON object. */
export type JsonRecord = Record<string, unknown>;

/** Narrows to a plain object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One step of the history: turns a document of version `n` into version `n + 1`. */
type Migration = (doc: JsonRecord) => JsonRecord;

const NODE_UI_KEYS = new Set(["selected", "dragging", "measured", "width", "height", "resizing", "positionAbsolute"]);
const EDGE_UI_KEYS = new Set(["selected", "animated"]);
const LEGACY_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ["flow connection", "flow_connection"],
  ["facebook pixel", "facebook_pixel"],
]);

function omitKeys(record: JsonRecord, keys: ReadonlySet<string>): JsonRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.has(key)));
}

/** `MIGRATIONS[n]` migrates version n to n + 1. */
const MIGRATIONS: readonly Migration[] = [
  // 0 → 1
  (doc) => ({
    ...doc,
    version: 1,
    nodes: Array.isArray(doc.nodes)
      ? doc.nodes.map((node) => {
          if (!isRecord(node)) return node;
          const type = typeof node.type === "string" ? (LEGACY_TYPE_NAMES.get(node.type) ?? node.type) : node.type;
          return { ...omitKeys(node, NODE_UI_KEYS), type };
        })
      : doc.nodes,
    edges: Array.isArray(doc.edges)
      ? doc.edges.map((edge) => (isRecord(edge) ? { ...omitKeys(edge, EDGE_UI_KEYS), sourceHandle: edge.sourceHandle ?? "next" } : edge))
      : doc.edges,
  }),
];

/** The result of migrateFlow. */
export type MigrateResult = { ok: true; doc: JsonRecord; from: number } | { ok: false; code: "invalid_document" | "unsupported_version"; message: string };

/**
 * Brings a stored or posted document to the current version by running the migrations in order
 * (a missing `version` is version 0). Pure; never throws. Refuses a non-object and a version newer
 * than this code (`unsupported_version`: an old client must not overwrite a newer document). The
 * result still needs validateFlow/parseFlow.
 */
export function migrateFlow(input: unknown): MigrateResult {
  if (!isRecord(input)) return { ok: false, code: "invalid_document", message: "A flow document is a JSON object." };
  const from = input.version === undefined ? 0 : input.version;
  if (typeof from !== "number" || !Number.isInteger(from) || from < 0) return { ok: false, code: "invalid_document", message: "The flow's version is not a whole number." };
  if (from > FLOW_VERSION) return { ok: false, code: "unsupported_version", message: `The flow is of version ${from}; this build reads up to version ${FLOW_VERSION}.` };
  let doc = input;
  for (let version = from; version < FLOW_VERSION; version += 1) {
    const migration = MIGRATIONS[version];
    if (!migration) return { ok: false, code: "unsupported_version", message: `No migration from version ${version}.` };
    doc = migration(doc);
  }
  return { ok: true, doc, from };
}

/** A new builder's document: one start block (id `start`) and nothing else. */
export function emptyFlow(): FlowDocument {
  return { version: FLOW_VERSION, nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { description: "" } }], edges: [] };
}
