/**
 * The flow document (schema/flows) ↔ the canvas (@xyflow/react). A canvas node IS a document node
 * (id, type, position, typed data) plus the canvas' own UI state (selection, measured size…), so
 * loading spreads and saving strips. Copy/paste gives pasted blocks and option ids fresh ids and
 * keeps only the edges between copied blocks. Pure.
 */
import type { Edge } from "@xyflow/react";
import {
  BLOCKS,
  blockNodeSchema,
  blockOutputs,
  FLOW_VERSION,
  type AnyBlockNode,
  type BlockType,
  type FlowDocument,
  type FlowDocumentInput,
} from "../../../../../schema/flows";

/** The canvas' per-node UI state (what @xyflow/react adds to a node). */
export type NodeUi = {
  selected?: boolean;
  dragging?: boolean;
  measured?: { width?: number; height?: number };
  width?: number;
  height?: number;
  deletable?: boolean;
  focusable?: boolean;
};

/** A node on the canvas: a typed block plus UI state (a union discriminated by `type`). */
export type EditorNode = AnyBlockNode & NodeUi;
/** An edge on the canvas. */
export type EditorEdge = Edge;
/** The canvas' viewport. */
export type Viewport = { x: number; y: number; zoom: number };

/** The canvas' nodes and edges of a parsed document; the start block cannot be deleted. */
export function toCanvas(doc: FlowDocument): { nodes: EditorNode[]; edges: EditorEdge[] } {
  return {
    nodes: doc.nodes.map((node) => ({ ...node, deletable: BLOCKS[node.type].hasInput })),
    edges: doc.edges.map((edge) => ({ id: edge.id, source: edge.source, sourceHandle: edge.sourceHandle, target: edge.target, targetHandle: edge.targetHandle ?? null })),
  };
}

/** The document of the canvas, UI state dropped (what PUT /api/flows/{id} `draft` takes). */
export function toDocument(nodes: readonly EditorNode[], edges: readonly EditorEdge[], viewport?: Viewport): FlowDocumentInput {
  return {
    version: FLOW_VERSION,
    nodes: nodes.map((node) => ({ id: node.id, type: node.type, position: { x: node.position.x, y: node.position.y }, data: node.data })),
    edges: edges.map((edge) => ({ id: edge.id, source: edge.source, sourceHandle: edge.sourceHandle ?? "next", target: edge.target, ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}) })),
    ...(viewport ? { viewport: { x: viewport.x, y: viewport.y, zoom: viewport.zoom } } : {}),
  };
}

/** A short random id (node, edge or option), `[A-Za-z0-9_-]`. */
export function newId(prefix = ""): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return prefix + Array.from(bytes, (byte) => byte.toString(36).padStart(2, "0")).join("").slice(0, 10);
}

/** A new block of `type` at `position`, with the registry's defaults. */
export function newBlock(type: BlockType, position: { x: number; y: number }, id: string = newId("b")): EditorNode {
  const parsed = blockNodeSchema.parse({ id, type, position, data: BLOCKS[type].defaults() });
  return { ...parsed, deletable: BLOCKS[type].hasInput };
}

/** The edge id for an output → target connection. */
export function edgeId(source: string, handle: string, target: string): string {
  return `e-${source}-${handle.replace(/[^A-Za-z0-9_-]/g, "_")}-${target}`;
}

/** Replaces a node's data after checking it against its type's schema; null when it does not parse. */
export function withData(node: EditorNode, data: unknown): EditorNode | null {
  const parsed = blockNodeSchema.safeParse({ id: node.id, type: node.type, position: node.position, data });
  if (!parsed.success) return null;
  return { ...parsed.data, selected: node.selected, measured: node.measured, deletable: node.deletable };
}

/** Drops the edges leaving by an output their block no longer has (a deleted button, a mode change). */
export function pruneEdges(nodes: readonly EditorNode[], edges: readonly EditorEdge[]): EditorEdge[] {
  const outputs = new Map(nodes.map((node) => [node.id, new Set(blockOutputs(node).map((output) => output.id))]));
  const kept = edges.filter((edge) => {
    const handles = outputs.get(edge.source);
    return handles !== undefined && outputs.has(edge.target) && handles.has(edge.sourceHandle ?? "next");
  });
  return kept.length === edges.length ? [...edges] : kept;
}

/** What copy puts on the clipboard: blocks (no start block) and the edges between them. */
export type ClipboardContent = { nodes: EditorNode[]; edges: EditorEdge[] };

/** Copies the selected blocks (the start block excluded) and the edges whose both ends are copied. */
export function copySelection(nodes: readonly EditorNode[], edges: readonly EditorEdge[]): ClipboardContent {
  const copied = nodes.filter((node) => node.selected && node.type !== "start");
  const ids = new Set(copied.map((node) => node.id));
  return { nodes: copied.map((node) => ({ ...node, selected: false })), edges: edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)) };
}

/** The option lists of a block re-keyed with fresh ids; answers the data and the handle renames. */
function renewOptions(node: EditorNode, makeId: () => string): { node: EditorNode; handles: Map<string, string> } {
  const handles = new Map<string, string>();
  const renew = <T extends { id: string }>(items: readonly T[]): T[] =>
    items.map((item) => {
      const id = makeId();
      handles.set(`option:${item.id}`, `option:${id}`);
      return { ...item, id };
    });
  switch (node.type) {
    case "link":
      return { node: { ...node, data: { ...node.data, buttons: renew(node.data.buttons) } }, handles };
    case "list":
      return { node: { ...node, data: { ...node.data, responses: renew(node.data.responses) } }, handles };
    case "number":
      return { node: { ...node, data: { ...node.data, options: renew(node.data.options) } }, handles };
    case "random":
      return { node: { ...node, data: { ...node.data, outputs: renew(node.data.outputs) } }, handles };
    case "rotary":
      return { node: { ...node, data: { ...node.data, outputs: renew(node.data.outputs) } }, handles };
    default:
      return { node, handles };
  }
}

/**
 * The clipboard's blocks ready to add: new node ids, new option ids (and their edges' handles),
 * shifted by `offset`, selected; edges re-pointed at the new ids.
 */
export function pasteContent(content: ClipboardContent, offset: { x: number; y: number }, makeId: (prefix: string) => string = newId): ClipboardContent {
  const ids = new Map<string, string>();
  const handleMaps = new Map<string, Map<string, string>>();
  const nodes = content.nodes.map((original) => {
    const id = makeId("b");
    ids.set(original.id, id);
    const { node, handles } = renewOptions(original, () => makeId(""));
    handleMaps.set(original.id, handles);
    return { ...node, id, position: { x: node.position.x + offset.x, y: node.position.y + offset.y }, selected: true };
  });
  const edges: EditorEdge[] = [];
  for (const edge of content.edges) {
    const source = ids.get(edge.source);
    const target = ids.get(edge.target);
    if (!source || !target) continue;
    const handle = edge.sourceHandle ?? "next";
    const sourceHandle = handleMaps.get(edge.source)?.get(handle) ?? handle;
    edges.push({ id: edgeId(source, sourceHandle, target), source, sourceHandle, target, targetHandle: edge.targetHandle ?? null });
  }
  return { nodes, edges };
}
