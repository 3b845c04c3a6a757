/**
 * /flows/:id (permission `flow`): the flow builder's editor. Loads the builder, then the palette,
 * the canvas, the block slide-over, the test run panel, and a toolbar with autosave status,
 * undo/redo, "Test run" and "Publish" (showing the published version). Shortcuts: Ctrl/⌘+Z undo,
 * Ctrl/⌘+Shift+Z or Ctrl+Y redo, Ctrl/⌘+C / V copy and paste blocks, Delete removes, Enter edits
 * the focused block.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { toast } from "sonner";
import { ArrowLeft, Blocks, Check, CloudUpload, PlayCircle, Redo2, Rocket, Undo2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Sheet, SheetContent, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import type { FlowDetail } from "@/lib/answers";
import { isNotFound } from "@/lib/error-messages";
import { NotFoundPage } from "@/app/routes/not-found";
import { notifyError, TOAST_DURATION_MS } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { useDocumentTop } from "@/lib/use-document-top";
import type { BlockType } from "../../../../../../schema/flows";
import { flowKeys, flowQuery, flowStatsQuery, publishFlow } from "../../api/flows-api";
import { useAutosave, type SaveStatus } from "../../hooks/use-autosave";
import { FLOW_TYPE_LABELS } from "../../lib/labels";
import type { EditorEdge, EditorNode } from "../../lib/document";
import { createEditorStore, EditorStoreProvider, useEditor, useEditorStoreApi } from "../../store/editor-store";
import { BlockSheet } from "./block-sheet";
import { FlowCanvas } from "./flow-canvas";
import { Palette } from "./palette";
import { TestRunPanel } from "./test-run-panel";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Keyboard shortcuts of the editor (ignored while typing in a field). */
function useShortcuts() {
  const { t, i18n } = useLingui();
  const store = useEditorStoreApi();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const state = store.getState();
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && key === "z" && !event.shiftKey) {
        event.preventDefault();
        state.undo();
      } else if (mod && ((key === "z" && event.shiftKey) || key === "y")) {
        event.preventDefault();
        state.redo();
      } else if (mod && key === "c") {
        const count = state.copy();
        if (count) toast.success(countText(i18n, "blocksCopied", count), { id: "blocks-copied", duration: TOAST_DURATION_MS });
      } else if (mod && key === "v") {
        event.preventDefault();
        state.paste();
      } else if (key === "enter" && event.target instanceof HTMLElement && event.target.classList.contains("react-flow__node")) {
        const id = event.target.getAttribute("data-id");
        if (id) state.setEditing(id);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [store, t, i18n]);
}

function SaveIndicator({ status }: { status: SaveStatus }) {
  const { t } = useLingui();
  const text = { saved: t`All changes saved`, pending: t`Unsaved changes`, saving: t`Saving…`, error: t`Error saving. Try again.` }[status];
  return (
    <span role="status" className={cn("hidden items-center gap-1 text-xs md:flex", status === "error" ? "text-destructive" : "text-muted-foreground")} data-testid="flow-save-status" data-status={status}>
      {status === "saving" ? <Spinner /> : status === "saved" ? <Check className="size-3.5" aria-hidden /> : <CloudUpload className="size-3.5" aria-hidden />}
      {text}
    </span>
  );
}

function Toolbar({ flow, status, flush, testing, onTest, onPalette }: { flow: FlowDetail; status: SaveStatus; flush: () => Promise<boolean>; testing: boolean; onTest: () => void; onPalette: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const canUndo = useEditor((state) => state.history.past.length > 0);
  const canRedo = useEditor((state) => state.history.future.length > 0);
  const undo = useEditor((state) => state.undo);
  const redo = useEditor((state) => state.redo);
  const [publishing, setPublishing] = useState(false);
  const [version, setVersion] = useState(flow.publishedVersion);
  const back = flow.folderId ? `/folders/${flow.folderId}` : "/folders";

  const publish = async () => {
    setPublishing(true);
    try {
      if (!(await flush())) return;
      const answer = await publishFlow(flow.id);
      setVersion(answer.version);
      const published = answer.version;
      toast.success(t`Version ${published} published.`, { duration: TOAST_DURATION_MS });
      await queryClient.invalidateQueries({ queryKey: flowKeys.all, refetchType: "none" });
    } catch (error) {
      if (isApiError(error) && error.status === 400) toast.error(t`Fix the marked blocks before publishing.`, { duration: TOAST_DURATION_MS });
      else notifyError(error);
    } finally {
      setPublishing(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2 border-b px-3 py-2">
      <Button asChild variant="ghost" size="icon" aria-label={t`Back to the flows`}>
        <Link to={back}>
          <ArrowLeft />
        </Link>
      </Button>
      <div className="grid min-w-0 flex-1">
        <h1 className="truncate text-base font-semibold" data-testid="flow-name">
          {flow.name}
        </h1>
        <span className="text-xs text-muted-foreground">{i18n._(FLOW_TYPE_LABELS[flow.type])}</span>
      </div>
      <SaveIndicator status={status} />
      <Button variant="outline" size="icon" className="lg:hidden" onClick={onPalette} aria-label={t`Blocks`}>
        <Blocks />
      </Button>
      <Button variant="ghost" size="icon" onClick={undo} disabled={!canUndo} aria-label={t`Undo`} title={t`Undo (Ctrl+Z)`}>
        <Undo2 />
      </Button>
      <Button variant="ghost" size="icon" onClick={redo} disabled={!canRedo} aria-label={t`Redo`} title={t`Redo (Ctrl+Shift+Z)`}>
        <Redo2 />
      </Button>
      <Button variant={testing ? "secondary" : "outline"} size="sm" onClick={onTest} aria-pressed={testing}>
        <PlayCircle />
        {t`Test run`}
      </Button>
      <Badge variant="outline" data-testid="flow-published-version">
        {version === null ? t`Not published` : t`Published v${version}`}
      </Badge>
      <Button size="sm" onClick={() => void publish()} disabled={publishing}>
        {publishing ? <Spinner /> : <Rocket />}
        {t`Publish`}
      </Button>
    </div>
  );
}

function EditorLayout({ flow }: { flow: FlowDetail }) {
  const { t } = useLingui();
  const store = useEditorStoreApi();
  const { status, flush } = useAutosave(flow.id, store);
  const [testing, setTesting] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  // Sized to the window below the app's header and any notice: minimap and zoom controls stay in view.
  const rootRef = useRef<HTMLDivElement>(null);
  const top = useDocumentTop(rootRef);
  // The area below the toolbar, where the block form opens (so it never covers Publish).
  const [workArea, setWorkArea] = useState<HTMLDivElement | null>(null);
  const hasStart = useEditor((state) => state.nodes.some((node) => node.type === "start"));
  const { screenToFlowPosition, setCenter, getZoom } = useReactFlow<EditorNode, EditorEdge>();
  const stats = useQuery(flowStatsQuery(flow.id));
  const setStats = useEditor((state) => state.setStats);
  useEffect(() => {
    if (stats.data) setStats(stats.data);
  }, [stats.data, setStats]);
  useShortcuts();

  const add = (type: BlockType) => {
    const state = store.getState();
    const selected = state.nodes.filter((node) => node.selected);
    const after = selected.length === 1 ? (selected[0]?.id ?? null) : null;
    const canvas = document.querySelector(".react-flow");
    const rect = canvas?.getBoundingClientRect();
    const center = rect ? screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }) : { x: 0, y: 0 };
    const offset = (state.nodes.length % 5) * 24;
    const id = state.addBlock(type, { x: center.x - 128 + offset, y: center.y - 40 + offset }, after);
    const added = store.getState().nodes.find((node) => node.id === id);
    // Keep the new block in sight, left of the block form that opens on the right.
    if (added) void setCenter(added.position.x + 128 + 180, added.position.y + 60, { zoom: getZoom(), duration: 200 });
    setPaletteOpen(false);
  };

  return (
    <div
      ref={rootRef}
      style={top === null ? undefined : { height: `calc(100dvh - ${top}px - var(--editor-bottom))` }}
      className="-mx-4 -my-4 flex h-[calc(100dvh-3.5rem)] min-h-[24rem] flex-col overflow-hidden border-y bg-background [--editor-bottom:0px] sm:mx-0 sm:my-0 sm:h-[calc(100dvh-6.5rem)] sm:rounded-xl sm:border sm:[--editor-bottom:1.5rem]"
    >
      <Toolbar flow={flow} status={status} flush={flush} testing={testing} onTest={() => setTesting((value) => !value)} onPalette={() => setPaletteOpen(true)} />
      <div ref={setWorkArea} className="relative flex min-h-0 flex-1">
        <div className="hidden w-72 shrink-0 overflow-y-auto border-r lg:block">
          <Palette onAdd={add} hasStart={hasStart} />
        </div>
        <div className="relative min-w-0 flex-1" data-testid="flow-canvas">
          <FlowCanvas />
        </div>
        {testing ? (
          <div className="absolute inset-0 z-30 sm:static sm:z-auto">
            <TestRunPanel onClose={() => setTesting(false)} />
          </div>
        ) : null}
      </div>
      <BlockSheet container={workArea} />
      <Sheet open={paletteOpen} onOpenChange={setPaletteOpen}>
        <SheetContent side="left" className="overflow-y-auto">
          <SheetTitle className="sr-only">{t`Blocks`}</SheetTitle>
          <Palette onAdd={add} hasStart={hasStart} />
        </SheetContent>
      </Sheet>
    </div>
  );
}

function Editor({ flow }: { flow: FlowDetail }) {
  const [store] = useState(() => createEditorStore({ flowId: flow.id, doc: flow.draft }));
  return (
    <ReactFlowProvider>
      <EditorStoreProvider store={store}>
        <EditorLayout flow={flow} />
      </EditorStoreProvider>
    </ReactFlowProvider>
  );
}

/** The /flows/:id screen. */
export function FlowEditorPage() {
  const { t } = useLingui();
  const { id = "" } = useParams();
  const flow = useQuery({ ...flowQuery(id), enabled: id !== "" });
  if (flow.isPending) {
    return (
      <div className="grid gap-3" aria-busy>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-[60vh] w-full" />
        <span className="sr-only">{t`Loading the flow…`}</span>
      </div>
    );
  }
  if (flow.isError) {
    if (isNotFound(flow.error)) return <NotFoundPage />;
    return (
      <Card>
        <ErrorState title={t`Could not load the flow.`} onRetry={() => void flow.refetch()} />
      </Card>
    );
  }
  return <Editor key={flow.data.id} flow={flow.data} />;
}
