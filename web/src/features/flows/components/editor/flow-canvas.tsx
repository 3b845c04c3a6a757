/**
 * The canvas (@xyflow/react) over the editor store: block nodes, edges, drop from the palette,
 * minimap, zoom controls, background, dark mode (`colorMode`). Read-only for the share preview.
 */
import { useCallback, useMemo, type DragEvent } from "react";
import { Background, Controls, MiniMap, ReactFlow, useReactFlow, type NodeTypes } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useLingui } from "@lingui/react/macro";
import { useTheme } from "@/lib/theme";
import { BLOCK_TYPES, isBlockType } from "../../../../../../schema/flows";
import type { EditorEdge, EditorNode } from "../../lib/document";
import { useEditor, useEditorStoreApi } from "../../store/editor-store";
import { canvasAriaLabels } from "../../lib/canvas-labels";
import { BlockNode } from "./block-node";
import { BLOCK_DRAG_TYPE } from "./palette";

const NODE_TYPES: NodeTypes = Object.fromEntries(BLOCK_TYPES.map((type) => [type, BlockNode]));

/** The flow's canvas. */
export function FlowCanvas() {
  const { t, i18n } = useLingui();
  // Translated labels of xyflow's own controls (zoom, fit, lock, minimap, handles).
  const ariaLabelConfig = useMemo(() => canvasAriaLabels(i18n), [i18n, i18n.locale]);
  const [theme] = useTheme();
  const store = useEditorStoreApi();
  const nodes = useEditor((state) => state.nodes);
  const edges = useEditor((state) => state.edges);
  const readOnly = useEditor((state) => state.readOnly);
  const onNodesChange = useEditor((state) => state.onNodesChange);
  const onEdgesChange = useEditor((state) => state.onEdgesChange);
  const onConnect = useEditor((state) => state.onConnect);
  const testNodeId = useEditor((state) => state.testNodeId);
  const { screenToFlowPosition } = useReactFlow<EditorNode, EditorEdge>();
  const viewport = store.getState().viewport;

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(BLOCK_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(BLOCK_DRAG_TYPE);
      if (!isBlockType(type)) return;
      event.preventDefault();
      const position = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      store.getState().addBlock(type, { x: position.x - 128, y: position.y - 30 });
    },
    [screenToFlowPosition, store],
  );

  return (
    <ReactFlow<EditorNode, EditorEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      onDrop={readOnly ? undefined : onDrop}
      onDragOver={readOnly ? undefined : onDragOver}
      onNodeDoubleClick={readOnly ? undefined : (_event, node) => store.getState().setEditing(node.id)}
      onMoveEnd={(_event, next) => store.getState().setViewport(next)}
      nodesDraggable={!readOnly}
      nodesConnectable={!readOnly}
      elementsSelectable={!readOnly}
      deleteKeyCode={readOnly ? null : ["Delete", "Backspace"]}
      colorMode={theme}
      defaultViewport={viewport}
      fitView={!viewport}
      fitViewOptions={{ maxZoom: 1 }}
      minZoom={0.2}
      maxZoom={2}
      defaultEdgeOptions={{ type: "smoothstep" }}
      proOptions={{ hideAttribution: true }}
      aria-label={t`Flow canvas`}
      ariaLabelConfig={ariaLabelConfig}
    >
      <Background gap={20} />
      <Controls showInteractive={!readOnly} aria-label={t`Zoom controls`} />
      <MiniMap pannable zoomable nodeStrokeWidth={3} nodeColor={(node) => (node.id === testNodeId ? "#10b981" : theme === "dark" ? "#52525b" : "#d4d4d8")} aria-label={t`Minimap`} />
    </ReactFlow>
  );
}
