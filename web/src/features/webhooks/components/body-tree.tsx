/**
 * A received body as a clickable tree (issue 11: "the user picks paths by CLICKING fields of a
 * captured body"): every leaf is a button opening a menu — use it as the phone, the name or the
 * e-mail, as the condition of an action, or as the value of a "set a custom field" action.
 */
import { useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { ChevronDown, ChevronRight } from "lucide-react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/utils";
import { jsonTree, type JsonNode } from "../lib/json-tree";

/** What a clicked leaf may become. */
export type PickTarget = { kind: "phone" | "name" | "email" } | { kind: "condition"; index: number } | { kind: "value"; index: number };

/** A choice of the leaf menu: its target and its label. */
export type PickChoice = { target: PickTarget; label: ReactNode; testId: string };

function Leaf({ node, choices, onPick, marks }: { node: Extract<JsonNode, { kind: "leaf" }>; choices: PickChoice[]; onPick: (path: string, text: string, target: PickTarget) => void; marks: Map<string, string[]> }) {
  const { t } = useLingui();
  const used = marks.get(node.path) ?? [];
  const path = node.path;
  return (
    <li className="flex min-w-0 items-baseline gap-1.5 py-0.5">
      <span className="shrink-0 font-mono text-xs text-muted-foreground">{node.key}:</span>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            className={cn(
              "min-w-0 truncate rounded px-1 text-left font-mono text-xs outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
              node.type === "string" ? "text-emerald-700 dark:text-emerald-400" : "text-sky-700 dark:text-sky-400",
              used.length > 0 && "bg-primary/10 ring-1 ring-primary/40",
            )}
            data-testid="json-leaf"
            data-path={path}
            aria-label={t`Use the field ${path}`}
            title={path}
          >
            {node.type === "string" ? JSON.stringify(node.text) : node.text}
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuLabel className="font-mono text-xs break-all">{path}</DropdownMenuLabel>
          <DropdownMenuSeparator />
          {choices.map((choice) => (
            <DropdownMenuItem key={choice.testId} onSelect={() => onPick(path, node.text, choice.target)} data-testid={choice.testId}>
              {choice.label}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      {used.length ? <span className="shrink-0 text-xs text-primary">← {used.join(", ")}</span> : null}
    </li>
  );
}

function Branch({ node, ...rest }: { node: Extract<JsonNode, { kind: "branch" }>; choices: PickChoice[]; onPick: (path: string, text: string, target: PickTarget) => void; marks: Map<string, string[]> }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(true);
  const hidden = node.hidden;
  return (
    <li className="min-w-0 py-0.5">
      <button type="button" className="flex items-center gap-1 rounded font-mono text-xs text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? <ChevronDown className="size-3" /> : <ChevronRight className="size-3" />}
        {node.key}
        {node.isArray ? ` [${node.children.length + hidden}]` : ""}
      </button>
      {open ? <Nodes nodes={node.children} {...rest} /> : null}
      {open && hidden > 0 ? <p className="pl-4 text-xs text-muted-foreground">{t`… and ${hidden} more`}</p> : null}
    </li>
  );
}

function Nodes({ nodes, ...rest }: { nodes: JsonNode[]; choices: PickChoice[]; onPick: (path: string, text: string, target: PickTarget) => void; marks: Map<string, string[]> }) {
  return (
    <ul className="min-w-0 border-l pl-3">
      {nodes.map((node) => (node.kind === "leaf" ? <Leaf key={node.path} node={node} {...rest} /> : <Branch key={node.path} node={node} {...rest} />))}
    </ul>
  );
}

/**
 * The tree of `body`. `choices` are the leaf menu's items; `marks` labels the paths already in use
 * (e.g. "phone"), shown beside their leaves.
 */
export function BodyTree({ body, choices, onPick, marks }: { body: unknown; choices: PickChoice[]; onPick: (path: string, text: string, target: PickTarget) => void; marks: Map<string, string[]> }) {
  const nodes = jsonTree(body);
  return (
    <div className="max-h-[28rem] overflow-auto rounded-md border bg-muted/30 p-2" data-testid="body-tree">
      <Nodes nodes={nodes} choices={choices} onPick={onPick} marks={marks} />
    </div>
  );
}
