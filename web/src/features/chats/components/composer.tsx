/**
 * The message composer: text (Enter sends, Shift+Enter breaks the line), emoji, one file attachment
 * (picked or pasted) with an optional caption, voice notes, and the quoted message being answered.
 * While the member types, the room is told ("typing", then "paused" when they stop); while recording,
 * "recording". Typing `/` at the start of a word lists the quick messages (features/quick-messages).
 */
import { useEffect, useRef, useState, type ChangeEvent, type ClipboardEvent, type KeyboardEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { File as FileIcon, Mic, Paperclip, SendHorizontal, Square, Trash2, X } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { TOAST_DURATION_MS } from "@/lib/notify";
import { cn } from "@/lib/utils";
import type { MessageAnswer } from "../../../../../schema/realtime";
import { formatBytes, type Draft } from "../lib/messages";
import { useAudioRecorder } from "../hooks/use-audio-recorder";
import { useSlashCommand } from "@/features/quick-messages/hooks/use-slash-command";
import { EmojiPicker } from "./emoji-picker";
import { useMessageSummary } from "./message-content";

/** Largest file the worker accepts (100 MB). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;
/** Longest text message (worker validation). */
const MAX_TEXT = 4096;
/** "typing" is repeated at most this often while typing; "paused" follows this long after the last key (ms). */
const TYPING_REPEAT_MS = 3000;
const TYPING_IDLE_MS = 4000;

/** Props of {@link Composer}. */
export type ComposerProps = {
  ticketId: string;
  /** The ticket's contact: quick messages chosen with `/` are filled in with their values. */
  contactId?: string | null;
  quoted: MessageAnswer | null;
  onClearQuote: () => void;
  onSend: (draft: Draft) => void;
  sendTyping: (state: "typing" | "recording" | "paused") => void;
  /** A line above the input (e.g. "Sending a message reopens this ticket."). */
  notice?: string | null;
};

function formatElapsed(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The composer of one ticket; its draft text is kept per ticket while the page is open. */
export function Composer({ ticketId, contactId = null, quoted, onClearQuote, onSend, sendTyping, notice }: ComposerProps) {
  const { t } = useLingui();
  const summary = useMessageSummary();
  const [text, setText] = useState(() => drafts.get(ticketId) ?? "");
  const [file, setFile] = useState<File | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const typingSentAt = useRef(0);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const recorder = useAudioRecorder();
  const slash = useSlashCommand({ text, setText, inputRef, contactId, onAttach: (picked) => pickFile(picked) });

  useEffect(() => {
    drafts.set(ticketId, text);
  }, [ticketId, text]);

  useEffect(() => {
    inputRef.current?.focus();
  }, [ticketId, quoted]);

  // Grow with the text up to ~8 lines.
  useEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 200)}px`;
  }, [text]);

  useEffect(
    () => () => {
      if (idleTimer.current) clearTimeout(idleTimer.current);
    },
    [],
  );

  const stopTyping = () => {
    if (idleTimer.current) clearTimeout(idleTimer.current);
    idleTimer.current = null;
    if (typingSentAt.current) sendTyping("paused");
    typingSentAt.current = 0;
  };

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    setText(event.target.value);
    const now = Date.now();
    if (now - typingSentAt.current > TYPING_REPEAT_MS) {
      sendTyping("typing");
      typingSentAt.current = now;
    }
    if (idleTimer.current) clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  };

  const pickFile = (picked: File | undefined | null) => {
    if (!picked) return;
    if (picked.size > MAX_FILE_BYTES) {
      toast.error(t`The file is larger than 100 MB.`, { duration: TOAST_DURATION_MS });
      return;
    }
    if (picked.size === 0) {
      toast.error(t`The file is empty.`, { duration: TOAST_DURATION_MS });
      return;
    }
    setFile(picked);
    inputRef.current?.focus();
  };

  const body = text.trim();
  const canSend = !!file || body.length > 0;

  const submit = () => {
    if (!canSend) return;
    const quotedId = quoted?.id;
    if (file) onSend({ kind: "file", file, body: text.trim(), quotedId });
    else onSend({ kind: "text", body: text.trim(), quotedId });
    setText("");
    setFile(null);
    onClearQuote();
    stopTyping();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(event)) return;
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    } else if (event.key === "Escape" && quoted) {
      onClearQuote();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = event.clipboardData.files[0];
    if (pasted) {
      event.preventDefault();
      pickFile(pasted);
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = inputRef.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + emoji + text.slice(end);
    setText(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const startRecording = async () => {
    try {
      await recorder.start();
      sendTyping("recording");
    } catch {
      toast.error(t`Microphone access was denied.`, { duration: TOAST_DURATION_MS });
    }
  };

  const finishRecording = async () => {
    const recorded = await recorder.stop();
    sendTyping("paused");
    if (recorded) onSend({ kind: "file", file: recorded, body: "", type: "audio", quotedId: quoted?.id });
    onClearQuote();
  };

  const cancelRecording = () => {
    recorder.cancel();
    sendTyping("paused");
  };

  return (
    <div className="relative shrink-0 border-t bg-background p-2 sm:p-3" data-testid="composer">
      {slash.popup}
      {notice ? <p className="mb-2 px-1 text-xs text-muted-foreground">{notice}</p> : null}
      {quoted ? (
        <div className="mb-2 flex items-start gap-2 rounded-md border-l-4 border-primary bg-muted px-3 py-2 text-sm" aria-label={t`Replying to`}>
          <div className="min-w-0 flex-1">
            <p className="text-xs font-semibold text-primary">{quoted.direction === "out" ? t`Replying to yourself` : t`Replying to the contact`}</p>
            <p className="line-clamp-2 text-muted-foreground">{summary(quoted)}</p>
          </div>
          <Button variant="ghost" size="icon" className="size-7" onClick={onClearQuote} aria-label={t`Cancel reply`}>
            <X />
          </Button>
        </div>
      ) : null}
      {file ? (
        <div className="mb-2 flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
          <FileIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span className="min-w-0 flex-1 truncate">{file.name}</span>
          <span className="shrink-0 text-xs text-muted-foreground">{formatBytes(file.size)}</span>
          <Button variant="ghost" size="icon" className="size-7" onClick={() => setFile(null)} aria-label={t`Remove attachment`}>
            <X />
          </Button>
        </div>
      ) : null}
      {recorder.recording ? (
        <div className="flex items-center gap-2" role="group" aria-label={t`Recording a voice message`}>
          <Button variant="ghost" size="icon" onClick={cancelRecording} aria-label={t`Discard recording`}>
            <Trash2 />
          </Button>
          <span className="flex flex-1 items-center gap-2 text-sm" aria-live="polite">
            <span className="size-2.5 animate-pulse rounded-full bg-destructive" aria-hidden />
            {t`Recording`} {formatElapsed(recorder.elapsed)}
          </span>
          <Button size="icon" onClick={() => void finishRecording()} aria-label={t`Stop and send voice message`}>
            <Square />
          </Button>
        </div>
      ) : (
        <div className="flex items-end gap-1">
          <EmojiPicker onPick={insertEmoji} />
          <Button variant="ghost" size="icon" onClick={() => fileRef.current?.click()} aria-label={t`Attach a file`}>
            <Paperclip />
          </Button>
          <input
            ref={fileRef}
            type="file"
            className="hidden"
            tabIndex={-1}
            aria-hidden
            onChange={(event) => {
              pickFile(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
          <textarea
            ref={inputRef}
            rows={1}
            value={text}
            maxLength={MAX_TEXT}
            onChange={onChange}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onSelect={slash.onSelect}
            {...slash.inputProps}
            onBlur={stopTyping}
            aria-label={t`Message`}
            data-testid="chat-composer"
            placeholder={file ? t`Add a caption…` : t`Type a message… (Enter sends, Shift+Enter for a new line)`}
            className={cn(
              "max-h-[200px] min-h-9 flex-1 resize-none rounded-md border border-input bg-background px-3 py-2 text-sm leading-5 outline-none placeholder:truncate placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring/60",
            )}
          />
          {recorder.supported && !canSend ? (
            <Button variant="ghost" size="icon" onClick={() => void startRecording()} aria-label={t`Record a voice message`}>
              <Mic />
            </Button>
          ) : null}
          <Button size="icon" onClick={submit} disabled={!canSend} aria-label={t`Send message`} data-testid="chat-send">
            <SendHorizontal />
          </Button>
        </div>
      )}
    </div>
  );
}

/** Unsent text per ticket, kept while the page is open. */
const drafts = new Map<string, string>();
