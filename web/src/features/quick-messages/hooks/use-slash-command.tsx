/**
 * The chat composer's `/` command (issue 4 "In the chat composer, typing `/` lists them by name and
 * inserts one"): while the word at the caret starts with `/`, a list of quick messages filtered by
 * name opens above the input; ↑/↓ move, Enter or Tab inserts, Escape closes, the mouse works too.
 * Choosing renders the message for the ticket's contact (POST /api/quick-messages/{id}/render),
 * puts the text in place of the `/query` and hands its attachment, if any, to the composer's own
 * attachment path. The input keeps focus throughout (the list is its `aria-activedescendant`).
 */
import { useEffect, useId, useLayoutEffect, useState, type KeyboardEvent, type ReactNode, type RefObject, type TextareaHTMLAttributes } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Paperclip } from "lucide-react";
import { toast } from "sonner";
import { Spinner } from "@/components/ui/spinner";
import { notifyError, TOAST_DURATION_MS } from "@/lib/notify";
import { useDebounced } from "@/lib/use-debounced";
import { cn } from "@/lib/utils";
import type { QuickMessageAnswer } from "../../../../../schema/api-types";
import { composerQuickMessagesQuery, renderQuickMessage } from "../api/quick-messages-api";
import { applySlashChoice, filterByName, findSlashQuery } from "../lib/slash-command";

/** Most quick messages listed at once. */
const MAX_SHOWN = 50;

/** What {@link useSlashCommand} needs from the composer. */
export type SlashCommandOptions = {
  text: string;
  setText: (text: string) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** The ticket's contact, whose values fill the variables (null: the text goes in as saved). */
  contactId: string | null;
  /** The composer's attachment path, for the quick message's file. */
  onAttach: (file: File) => void;
};

/** Props the composer spreads on its textarea while the list is open. */
export type SlashInputProps = Pick<TextareaHTMLAttributes<HTMLTextAreaElement>, "aria-controls" | "aria-activedescendant" | "aria-autocomplete" | "aria-haspopup">;

/** What the composer wires in: the key handler (true when it used the key), the caret tracker, the list and the input's ARIA props. */
export type SlashCommand = {
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  onSelect: () => void;
  popup: ReactNode;
  inputProps: SlashInputProps;
};

async function downloadMedia(media: NonNullable<QuickMessageAnswer["media"]>): Promise<File> {
  const response = await fetch(media.url);
  if (!response.ok) throw new Error(`media ${response.status}`);
  const blob = await response.blob();
  return new File([blob], media.name ?? "attachment", { type: media.mime || blob.type });
}

/** The `/` command of the chat composer; see the module comment. */
export function useSlashCommand({ text, setText, inputRef, contactId, onAttach }: SlashCommandOptions): SlashCommand {
  const { t } = useLingui();
  const listId = useId();
  const [caret, setCaret] = useState(text.length);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [activeState, setActiveState] = useState({ key: "", index: 0 });
  const [busyId, setBusyId] = useState<string | null>(null);

  // The caret after every change of the text (typing, inserting an emoji, clearing on send).
  useLayoutEffect(() => {
    setCaret(inputRef.current?.selectionStart ?? text.length);
  }, [text, inputRef]);

  const match = findSlashQuery(text, caret);
  const candidate = match !== null && dismissedAt !== match.start;
  const query = match?.query ?? "";
  const debouncedQuery = useDebounced(query.trim(), 200);
  const all = useQuery({ ...composerQuickMessagesQuery(""), enabled: candidate });
  // More quick messages than one call loads: ask the worker to search by name as well.
  const partial = all.data !== undefined && all.data.total > all.data.results.length;
  const searched = useQuery({ ...composerQuickMessagesQuery(debouncedQuery), enabled: candidate && partial && debouncedQuery !== "" });
  const source = partial && query.trim() ? (searched.data?.results ?? all.data?.results) : all.data?.results;
  const items = filterByName(source ?? [], query).slice(0, MAX_SHOWN);
  const loading = all.isPending || (partial && query.trim() !== "" && searched.isPending);
  const open = candidate && (items.length > 0 || loading || all.isError || !/\s/.test(query));
  const key = `${match?.start ?? -1}:${query}`;
  const active = activeState.key === key ? Math.min(activeState.index, Math.max(0, items.length - 1)) : 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (open) document.getElementById(`${listId}-option-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [open, active, listId]);

  const choose = async (message: QuickMessageAnswer) => {
    if (!match || busyId) return;
    setBusyId(message.id);
    try {
      const rendered = contactId ? await renderQuickMessage(message.id, contactId) : { text: message.text, media: message.media };
      const element = inputRef.current;
      const latest = element?.value ?? text;
      // The member may have typed on while the text was rendered: replace the `/query` still there.
      const still = latest.slice(match.start, match.start + 1) === "/" ? (findSlashQuery(latest, element?.selectionStart ?? latest.length) ?? match) : match;
      const next = applySlashChoice(latest, still, rendered.text);
      setDismissedAt(findSlashQuery(next.text, next.caret)?.start ?? null);
      setText(next.text);
      requestAnimationFrame(() => {
        element?.focus();
        element?.setSelectionRange(next.caret, next.caret);
        setCaret(next.caret);
      });
      if (rendered.media) {
        try {
          onAttach(await downloadMedia(rendered.media));
        } catch {
          toast.error(t`The quick message's attachment could not be loaded.`, { duration: TOAST_DURATION_MS });
        }
      }
    } catch (error) {
      notifyError(error);
    } finally {
      setBusyId(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !match || event.nativeEvent.isComposing) return false;
    const count = items.length;
    if (event.key === "ArrowDown" && count) setActiveState({ key, index: (active + 1) % count });
    else if (event.key === "ArrowUp" && count) setActiveState({ key, index: (active - 1 + count) % count });
    else if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey && count) {
      const chosen = items[active];
      if (chosen) void choose(chosen);
    } else if (event.key === "Escape") setDismissedAt(match.start);
    else return false;
    event.preventDefault();
    return true;
  };

  const onSelect = () => setCaret(inputRef.current?.selectionStart ?? text.length);

  const popup = open ? (
    <div className="absolute inset-x-2 bottom-full z-20 mb-1 overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-md sm:inset-x-3">
      <ul id={listId} role="listbox" aria-label={t`Quick messages`} className="max-h-64 overflow-y-auto p-1" data-testid="quick-message-suggestions">
        {loading ? (
          <li role="presentation" className="flex items-center gap-2 px-2 py-3 text-sm text-muted-foreground">
            <Spinner />
            {t`Loading quick messages…`}
          </li>
        ) : all.isError ? (
          <li role="presentation" className="px-2 py-3 text-sm text-destructive">
            {t`Could not load the quick messages.`}
          </li>
        ) : items.length === 0 ? (
          <li role="presentation" className="px-2 py-3 text-sm text-muted-foreground">
            {query ? t`No quick messages match "${query}"` : t`No quick messages yet`}
          </li>
        ) : (
          items.map((message, index) => (
            <li
              key={message.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              data-active={index === active ? "" : undefined}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => (index === active ? undefined : setActiveState({ key, index }))}
              onClick={() => void choose(message)}
              className={cn("flex cursor-default items-start gap-2 rounded-sm px-2 py-1.5 text-sm select-none data-[active]:bg-accent data-[active]:text-accent-foreground")}
            >
              <span className="grid min-w-0 flex-1">
                <span className="truncate font-medium">/{message.name}</span>
                {message.text ? <span className="truncate text-xs text-muted-foreground">{message.text}</span> : null}
              </span>
              {busyId === message.id ? <Spinner className="mt-0.5" /> : message.media ? <Paperclip className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden /> : null}
            </li>
          ))
        )}
      </ul>
      <p className="border-t px-2 py-1 text-[11px] text-muted-foreground">{t`↑↓ to choose · Enter to insert · Esc to close`}</p>
    </div>
  ) : null;

  const inputProps: SlashInputProps = open
    ? { "aria-controls": listId, "aria-activedescendant": items.length ? optionId(active) : undefined, "aria-autocomplete": "list", "aria-haspopup": "listbox" }
    : {};

  return { onKeyDown, onSelect, popup, inputProps };
}
