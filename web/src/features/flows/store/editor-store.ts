/**
 * The editor's state (STYLE.md, after xyflow's strudel-flow: a store behind selector hooks): the
 * canvas' nodes and edges, the undo/redo history of committed snapshots, the validateFlow problems
 * of the current draft (markers), the block being edited, the clipboard, run counts and the test
 * run's current block. One store per open editor (or read-only preview), given by context.
 *
 * What commits a history step (and bumps `revision`, which autosave watches): adding, deleting,
 * connecting, pasting, a drag's end, a block's data (coalesced per block). Selection, measuring and
 * the viewport do not.
 */
import { createContext, createElement, useContext, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";
import { addEdge, applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from "@xyflow/react";
import { blockOutputs, validateFlow, type BlockType, type FlowDocument, type FlowProblem } from "../../../../../schema/flows";
import type { FlowStatsAnswer } from "../../../../../schema/flow-api";
import { canRedo, canUndo, commit, createHistory, redo, undo, type History } from "../lib/history";
import {
  copySelection,
  edgeId,
  newBlock,
  pasteContent,
  pruneEdges,
  toCanvas,
  toDocument,
  withData,
  type ClipboardContent,
  type EditorEdge,
  type EditorNode,
  type Viewport,
} from "../lib/document";
import { placeAfter } from "../lib/placement";

/** A committed state of the document. */
export type Snapshot = { nodes: EditorNode[]; edges: EditorEdge[] };

/** The editor store's state and actions. */
export type EditorState = {
  flowId: string;
  readOnly: boolean;
  nodes: EditorNode[];
  edges: EditorEdge[];
  viewport: Viewport | undefined;
  history: History<Snapshot>;
  problems: FlowProblem[];
  /** Problems by block id (stable arrays between commits, for selectors). */
  problemsByNode: ReadonlyMap<string, FlowProblem[]>;
  /** Bumped on every document change; autosave saves when it moves. */
  revision: number;
  /** Bumped when the document is replaced under an open form (undo, redo): the form reloads. */
  formRevision: number;
  editingId: string | null;
  clipboard: ClipboardContent | null;
  stats: FlowStatsAnswer;
  /** The block a test run is on (highlighted), or null. */
  testNodeId: string | null;
  onNodesChange(changes: NodeChange<EditorNode>[]): void;
  onEdgesChange(changes: EdgeChange<EditorEdge>[]): void;
  onConnect(connection: Connection): void;
  /**
   * Adds a block. With `after` (a block id), it goes to the right of it and its first free output
   * connects to the new block. Answers the new block's id.
   */
  addBlock(type: BlockType, position: { x: number; y: number }, after?: string | null): string;
  /** Replaces a block's data (checked against its schema; ignored when it does not parse). */
  setBlockData(id: string, data: unknown): void;
  deleteBlock(id: string): void;
  undo(): void;
  redo(): void;
  copy(): number;
  paste(): number;
  setEditing(id: string | null): void;
  setViewport(viewport: Viewport): void;
  setStats(stats: FlowStatsAnswer): void;
  setTestNode(id: string | null): void;
};

function indexProblems(problems: readonly FlowProblem[]): Map<string, FlowProblem[]> {
  const map = new Map<string, FlowProblem[]>();
  for (const problem of problems) {
    if (!problem.nodeId) continue;
    map.set(problem.nodeId, [...(map.get(problem.nodeId) ?? []), problem]);
  }
  return map;
}

function analyse(nodes: readonly EditorNode[], edges: readonly EditorEdge[]): Pick<EditorState, "problems" | "problemsByNode"> {
  const problems = validateFlow(toDocument(nodes, edges));
  return { problems, problemsByNode: indexProblems(problems) };
}

/** The first output of `node` with no edge, if any. */
export function firstFreeOutput(node: EditorNode, edges: readonly EditorEdge[]): string | null {
  const used = new Set(edges.filter((edge) => edge.source === node.id).map((edge) => edge.sourceHandle ?? "next"));
  return blockOutputs(node).find((output) => !used.has(output.id))?.id ?? null;
}

/** Creates the store of one editor over a parsed draft. */
export function createEditorStore(options: { flowId: string; doc: FlowDocument; readOnly?: boolean; now?: () => number }): StoreApi<EditorState> {
  const now = options.now ?? Date.now;
  const initial = toCanvas(options.doc);
  return createStore<EditorState>()((set, get) => {
    /** Records nodes/edges as a new history step (edges of removed outputs pruned). */
    const record = (nodes: EditorNode[], edges: EditorEdge[], key?: string, extra: Partial<EditorState> = {}) => {
      const kept = pruneEdges(nodes, edges);
      const state = get();
      set({
        nodes,
        edges: kept,
        history: commit(state.history, { nodes, edges: kept }, { key, now: now() }),
        revision: state.revision + 1,
        ...analyse(nodes, kept),
        ...extra,
      });
    };
    const restore = (history: History<Snapshot>) => {
      const state = get();
      const { nodes, edges } = history.present;
      const editingId = state.editingId && nodes.some((node) => node.id === state.editingId) ? state.editingId : null;
      set({ history, nodes, edges, revision: state.revision + 1, formRevision: state.formRevision + 1, editingId, ...analyse(nodes, edges) });
    };
    return {
      flowId: options.flowId,
      readOnly: options.readOnly ?? false,
      nodes: initial.nodes,
      edges: initial.edges,
      viewport: options.doc.viewport,
      history: createHistory<Snapshot>(initial),
      ...analyse(initial.nodes, initial.edges),
      revision: 0,
      formRevision: 0,
      editingId: null,
      clipboard: null,
      stats: {},
      testNodeId: null,

      onNodesChange(changes) {
        const state = get();
        const nodes = applyNodeChanges(changes, state.nodes);
        const removed = changes.some((change) => change.type === "remove");
        const moved = changes.some((change) => change.type === "position" && change.dragging === false);
        const added = changes.some((change) => change.type === "add" || change.type === "replace");
        if (state.readOnly || !(removed || moved || added)) {
          set({ nodes });
          return;
        }
        const editingId = state.editingId && nodes.some((node) => node.id === state.editingId) ? state.editingId : null;
        record(nodes, state.edges, removed ? "delete" : undefined, { editingId });
      },

      onEdgesChange(changes) {
        const state = get();
        const edges = applyEdgeChanges(changes, state.edges);
        if (state.readOnly || !changes.some((change) => change.type === "remove" || change.type === "add" || change.type === "replace")) {
          set({ edges });
          return;
        }
        record(state.nodes, edges, "delete");
      },

      onConnect(connection) {
        const state = get();
        if (state.readOnly || connection.source === connection.target) return;
        const handle = connection.sourceHandle ?? "next";
        // An output leads to one block: connecting it again replaces its edge.
        const others = state.edges.filter((edge) => !(edge.source === connection.source && (edge.sourceHandle ?? "next") === handle));
        const edges = addEdge({ ...connection, sourceHandle: handle, id: edgeId(connection.source, handle, connection.target) }, others);
        record(state.nodes, edges);
      },

      addBlock(type, position, after) {
        const state = get();
        const source = after ? state.nodes.find((node) => node.id === after) : undefined;
        const handle = source ? firstFreeOutput(source, state.edges) : null;
        const at = source ? placeAfter(source, state.nodes) : position;
        const block = { ...newBlock(type, at), selected: true };
        const nodes = [...state.nodes.map((node) => (node.selected ? { ...node, selected: false } : node)), block];
        const edges = source && handle ? [...state.edges, { id: edgeId(source.id, handle, block.id), source: source.id, sourceHandle: handle, target: block.id, targetHandle: null }] : state.edges;
        record(nodes, edges, undefined, { editingId: block.id });
        return block.id;
      },

      setBlockData(id, data) {
        const state = get();
        if (state.readOnly) return;
        const index = state.nodes.findIndex((node) => node.id === id);
        const current = state.nodes[index];
        if (!current) return;
        const next = withData(current, data);
        if (!next || JSON.stringify(next.data) === JSON.stringify(current.data)) return;
        const nodes = state.nodes.with(index, next);
        record(nodes, state.edges, `data:${id}`);
      },

      deleteBlock(id) {
        const state = get();
        const node = state.nodes.find((candidate) => candidate.id === id);
        if (state.readOnly || !node || node.deletable === false) return;
        record(
          state.nodes.filter((candidate) => candidate.id !== id),
          state.edges.filter((edge) => edge.source !== id && edge.target !== id),
          undefined,
          { editingId: state.editingId === id ? null : state.editingId },
        );
      },

      undo() {
        const { history, readOnly } = get();
        if (!readOnly && canUndo(history)) restore(undo(history));
      },

      redo() {
        const { history, readOnly } = get();
        if (!readOnly && canRedo(history)) restore(redo(history));
      },

      copy() {
        const state = get();
        const content = copySelection(state.nodes, state.edges);
        if (content.nodes.length === 0) return 0;
        set({ clipboard: content });
        return content.nodes.length;
      },

      paste() {
        const state = get();
        if (state.readOnly || !state.clipboard || state.clipboard.nodes.length === 0) return 0;
        const pasted = pasteContent(state.clipboard, { x: 40, y: 40 });
        // Pasting again pastes further along, not on top of the first paste.
        const clipboard = { ...state.clipboard, nodes: state.clipboard.nodes.map((node) => ({ ...node, position: { x: node.position.x + 40, y: node.position.y + 40 } })) };
        record([...state.nodes.map((node) => (node.selected ? { ...node, selected: false } : node)), ...pasted.nodes], [...state.edges, ...pasted.edges], undefined, { clipboard });
        return pasted.nodes.length;
      },

      setEditing(id) {
        set({ editingId: id });
      },
      setViewport(viewport) {
        set({ viewport });
      },
      setStats(stats) {
        set({ stats });
      },
      setTestNode(id) {
        set({ testNodeId: id });
      },
    };
  });
}

const EditorStoreContext = createContext<StoreApi<EditorState> | null>(null);

/** Gives an editor store to the canvas, its nodes and its panels. */
export function EditorStoreProvider({ store, children }: { store: StoreApi<EditorState>; children: ReactNode }) {
  return createElement(EditorStoreContext.Provider, { value: store }, children);
}

/** The current editor store (for imperative reads in event handlers). */
export function useEditorStoreApi(): StoreApi<EditorState> {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditor must be used inside an EditorStoreProvider");
  return store;
}

/** Selects from the editor's state; the selector must answer stable values (fields, not new objects). */
export function useEditor<T>(selector: (state: EditorState) => T): T {
  return useStore(useEditorStoreApi(), selector);
}

const NO_PROBLEMS: FlowProblem[] = [];

/** The block `id` (undefined once deleted). */
export function useBlock(id: string): EditorNode | undefined {
  return useEditor((state) => state.nodes.find((node) => node.id === id));
}

/** The validateFlow problems of block `id`. */
export function useBlockProblems(id: string): FlowProblem[] {
  return useEditor((state) => state.problemsByNode.get(id) ?? NO_PROBLEMS);
}

/** The current draft as a document (for saving, publishing and test runs). */
export function currentDocument(state: Pick<EditorState, "nodes" | "edges" | "viewport">) {
  return toDocument(state.nodes, state.edges, state.viewport);
}
