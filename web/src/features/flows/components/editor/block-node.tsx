/**
 * A block on the canvas (one component for the 22 types, after the registry): its icon and name,
 * a summary of its settings, an input handle (except start) and one labelled source handle per
 * output from the registry, a marker for validateFlow problems, the run counts of GET /stats, and
 * the test run's highlight; the Start block lists what starts the flow. `data-testid="flow-node-<type>"`.
 */
import { memo, useEffect, useMemo } from "react";
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from "@xyflow/react";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { countText } from "@/lib/counts";
import { AlertTriangle, Pencil } from "lucide-react";
import { BLOCKS, blockOutputs, type AnyBlockNode } from "../../../../../../schema/flows";
import { cn } from "@/lib/utils";
import { ACTION_KIND_LABELS, BLOCK_LABELS, outputLabel, problemText } from "../../lib/labels";
import type { EditorNode } from "../../lib/document";
import { useBlock, useBlockProblems, useEditor } from "../../store/editor-store";
import { flowQuery } from "../../api/flows-api";
import { BLOCK_ICONS } from "./block-icons";

const CATEGORY_ACCENT = {
  content: "bg-sky-500",
  buttons: "bg-violet-500",
  actions: "bg-amber-500",
  integrations: "bg-emerald-500",
  pixels: "bg-rose-500",
} as const;

function mediaName(url: string, fileName: string | undefined): string {
  if (fileName) return fileName;
  return url ? (url.split("/").pop() ?? url) : "";
}

/** One line on what the block is set to do (empty when nothing is set yet). */
function useSummary(node: AnyBlockNode): string {
  const { t, i18n } = useLingui();
  switch (node.type) {
    case "text":
    case "receive":
    case "list":
    case "number":
    case "notification":
      return node.data.message;
    case "link":
      return node.data.message || node.data.url;
    case "image":
    case "video":
    case "file":
      return node.data.message || mediaName(node.data.media.url, node.data.media.fileName);
    case "audio":
    case "ptv":
      return mediaName(node.data.media.url, node.data.media.fileName);
    case "contact":
      return [node.data.name, node.data.phone].filter(Boolean).join(" · ");
    case "delay": {
      const seconds = node.data.seconds;
      return t`Wait ${seconds} s`;
    }
    case "save":
      return node.data.fieldKey ? `{{${node.data.fieldKey}}} = ${node.data.value}` : "";
    case "action":
      return node.data.actions.map((action) => ("tag" in action ? `${action.kind === "add_tag" ? "+" : "−"} ${action.tag}` : "name" in action ? `${i18n._(ACTION_KIND_LABELS[action.kind])}: ${action.name}` : i18n._(ACTION_KIND_LABELS[action.kind]))).join(", ");
    case "condition": {
      const count = node.data.rules.length;
      return count ? countText(i18n, "rules", count) : "";
    }
    case "integration":
      return node.data.url ? `${node.data.method} ${node.data.url}` : "";
    case "facebook_pixel":
      return node.data.eventName;
    case "flow_connection":
      return node.data.flowId ? i18n._(BLOCK_LABELS.flow_connection) : "";
    default:
      return node.data.description;
  }
}

/**
 * What starts this flow, for the Start block: the keyword triggers and the connections' default-flow
 * slots that name it (GET /api/flows/{id} `triggers`, read from the editor's own flow query), and
 * always the manual start from a ticket.
 */
function StartTriggers() {
  const { t } = useLingui();
  const flowId = useEditor((state) => state.flowId);
  const triggers = useQuery({ ...flowQuery(flowId), staleTime: Infinity, enabled: false, select: (flow) => flow.triggers }).data;
  const slotText = (slot: "default" | "media" | "campaign" | "story", name: string) =>
    slot === "default" ? t`New conversations on ${name}` : slot === "media" ? t`Media messages on ${name}` : slot === "campaign" ? t`Ad replies on ${name}` : t`Story replies on ${name}`;
  const lines = [
    ...(triggers?.keywords ?? []).map((keyword) => {
      const name = keyword.name;
      const words = keyword.words.slice(0, 3).join(", ");
      return { key: `k:${keyword.id}`, text: keyword.turnOn ? t`Keyword ${name}: ${words}` : t`Keyword ${name} (off)` };
    }),
    ...(triggers?.connections ?? []).flatMap((connection) => connection.slots.map((slot) => ({ key: `c:${connection.id}:${slot}`, text: slotText(slot, connection.name) }))),
  ];
  return (
    <ul className="grid gap-0.5 text-xs text-muted-foreground" aria-label={t`What starts this flow`} data-testid="flow-start-triggers">
      {lines.map((line) => (
        <li key={line.key} className="break-words">
          {line.text}
        </li>
      ))}
      <li className={cn(lines.length > 0 && "text-muted-foreground/80")}>{lines.length ? t`Or by hand, from a ticket` : t`By hand, from a ticket (no keyword or connection starts it yet)`}</li>
    </ul>
  );
}

function BlockBody({ node, readOnly }: { node: EditorNode; readOnly: boolean }) {
  const { t, i18n } = useLingui();
  const problems = useBlockProblems(node.id);
  const stats = useEditor((state) => state.stats[node.id]);
  const testing = useEditor((state) => state.testNodeId === node.id);
  const setEditing = useEditor((state) => state.setEditing);
  const updateNodeInternals = useUpdateNodeInternals();
  const outputs = useMemo(() => blockOutputs(node), [node]);
  const handleKey = outputs.map((output) => output.id).join("|");
  useEffect(() => updateNodeInternals(node.id), [handleKey, node.id, updateNodeInternals]);
  const spec = BLOCKS[node.type];
  const Icon = BLOCK_ICONS[node.type];
  const label = i18n._(BLOCK_LABELS[node.type]);
  const summary = useSummary(node);
  const serious = problems.filter((problem) => problem.severity !== "warning");
  const marker = serious[0] ?? problems[0];
  const unconnected = new Set(problems.filter((problem) => problem.code === "unconnected_output").map((problem) => problem.detail));
  const reached = stats?.reached ?? 0;
  const stopped = stats?.stopped ?? 0;
  return (
    <div
      data-testid={`flow-node-${node.type}`}
      data-node-id={node.id}
      aria-label={label}
      className={cn(
        "w-64 rounded-lg border bg-card text-card-foreground shadow-sm transition-shadow",
        node.selected && "ring-2 ring-primary",
        testing && "ring-4 ring-emerald-500 shadow-lg shadow-emerald-500/30",
        serious.length > 0 && "border-destructive/60",
      )}
    >
      {spec.hasInput ? <Handle type="target" position={Position.Left} role="button" aria-label={t`Input`} className="!size-3 !border-2 !border-background !bg-muted-foreground" isConnectable={!readOnly} /> : null}
      <div className="flex items-center gap-2 border-b px-3 py-2">
        <span className={cn("flex size-6 shrink-0 items-center justify-center rounded text-white", CATEGORY_ACCENT[spec.category])} aria-hidden>
          <Icon className="size-3.5" />
        </span>
        <span className="min-w-0 flex-1 truncate text-sm font-medium">{label}</span>
        {marker ? (
          <span role="img" aria-label={problemText(i18n, marker)} title={problems.map((problem) => problemText(i18n, problem)).join("\n")} data-testid="flow-node-marker" data-severity={marker.severity}>
            <AlertTriangle className={cn("size-4", marker.severity === "warning" ? "text-amber-500" : "text-destructive")} aria-hidden />
          </span>
        ) : null}
        {!readOnly ? (
          <button
            type="button"
            className="nodrag rounded p-1 text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={t`Edit ${label}`}
            onClick={() => setEditing(node.id)}
          >
            <Pencil className="size-3.5" aria-hidden />
          </button>
        ) : null}
      </div>
      <div className="grid gap-2 px-3 py-2">
        {node.type === "start" && !readOnly ? (
          <StartTriggers />
        ) : summary ? (
          <p className="line-clamp-3 text-xs break-words whitespace-pre-line text-muted-foreground">{summary}</p>
        ) : (
          <p className="text-xs text-muted-foreground/70 italic">{t`Not set yet`}</p>
        )}
        {stats ? (
          <p className="flex gap-3 text-[11px] text-muted-foreground" data-testid="flow-node-stats">
            <span>{t`Reached: ${reached}`}</span>
            <span>{t`Stopped: ${stopped}`}</span>
          </p>
        ) : null}
      </div>
      {outputs.length ? (
        <ul className="grid gap-1 border-t py-2">
          {outputs.map((output) => {
            const name = outputLabel(i18n, node, output);
            return (
              <li key={output.id} className="relative flex items-center justify-end pr-4 pl-3 text-xs">
                <span className={cn("truncate", unconnected.has(output.id) ? "text-amber-700 dark:text-amber-400" : "text-muted-foreground")}>{name}</span>
                <Handle
                  type="source"
                  id={output.id}
                  position={Position.Right}
                  // A handle connects on click as well as by dragging: a button, named by its output.
                  role="button"
                  aria-label={name}
                  title={name}
                  data-testid={`flow-handle-${output.id}`}
                  isConnectable={!readOnly}
                  className="!-right-1.5 !size-3 !border-2 !border-background !bg-primary"
                />
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/** The node component given to @xyflow/react for every block type. */
export const BlockNode = memo(function BlockNode({ id }: NodeProps) {
  const node = useBlock(id);
  const readOnly = useEditor((state) => state.readOnly);
  if (!node) return null;
  return <BlockBody node={node} readOnly={readOnly} />;
});
