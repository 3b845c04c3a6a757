/**
 * The internal chat's composer: text (Enter sends, Shift+Enter breaks the line), emoji (the chat
 * centre's picker), one file attachment (picked or pasted) with an optional caption, and `@` to
 * mention a member of the conversation: while the word at the caret starts with `@`, the members
 * whose name matches are listed above the input (↑/↓ move, Enter or Tab inserts `@Full Name`,
 * Escape closes; the input keeps focus, the list is its `aria-activedescendant`). The mentioned
 * member is notified by the worker. While typing, the others are told ("typing", then "paused").
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ChangeEvent, type ClipboardEvent, type KeyboardEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { File as FileIcon, Paperclip, SendHorizontal, X } from "lucide-react";
import { toast } from "sonner";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { TOAST_DURATION_MS } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { EmojiPicker } from "@/features/chats/components/emoji-picker";
import { formatBytes } from "@/features/chats/lib/messages";
import { MAX_INTERNAL_MESSAGE_LENGTH, type InternalChatMemberAnswer } from "../../../../../schema/validation/internal-chats";
import type { InternalDraft } from "../api/internal-chats-api";
import { insertMention, mentionAt, mentionCandidates } from "../lib/internal-chats";

/** Largest file the worker accepts (100 MB). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;
/** "typing" is repeated at most this often while typing; "paused" follows this long after the last key (ms). */
const TYPING_REPEAT_MS = 3000;
const TYPING_IDLE_MS = 4000;

/** Unsent text per conversation, kept while the page is open. */
const drafts = new Map<string, string>();

/** Props of {@link InternalComposer}. */
export type InternalComposerProps = {
  chatId: string;
  /** Who can be @mentioned: the conversation's other members. */
  members: readonly InternalChatMemberAnswer[];
  onSend: (draft: InternalDraft) => void;
  onTyping: (state: "typing" | "paused") => void;
};

/** The composer of one internal conversation. */
export function InternalComposer({ chatId, members, onSend, onTyping }: InternalComposerProps) {
  const { t } = useLingui();
  const listId = useId();
  const [text, setText] = useState(() => drafts.get(chatId) ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [caret, setCaret] = useState(text.length);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const typingSentAt = useRef(0);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Where the caret goes once the text of a picked mention is in the input (see the layout effect). */
  const pendingCaret = useRef<number | null>(null);

  useEffect(() => {
    drafts.set(chatId, text);
  }, [chatId, text]);

  useEffect(() => {
    inputRef.current?.focus();
  }, [chatId]);

  // Grow with the text up to ~8 lines; follow the caret for the mention list.
  // A picked mention puts the caret after `@Name ` in the same commit as the new text, before the
  // next key is handled (a deferred frame could move it back after the user typed on).
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 200)}px`;
    const placed = pendingCaret.current;
    pendingCaret.current = null;
    if (placed !== null) {
      el.focus();
      el.setSelectionRange(placed, placed);
    }
    setCaret(placed ?? el.selectionStart ?? text.length);
  }, [text]);

  useEffect(
    () => () => {
      if (idleTimer.current) clearTimeout(idleTimer.current);
    },
    [],
  );

  const mention = mentionAt(text, caret);
  const candidates = mention && dismissedAt !== mention.start ? mentionCandidates(members, mention.query) : [];
  const open = candidates.length > 0;
  const current = Math.min(active, Math.max(0, candidates.length - 1));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const stopTyping = () => {
    if (idleTimer.current) clearTimeout(idleTimer.current);
    idleTimer.current = null;
    if (typingSentAt.current) onTyping("paused");
    typingSentAt.current = 0;
  };

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    setText(event.target.value);
    setActive(0);
    const now = Date.now();
    if (now - typingSentAt.current > TYPING_REPEAT_MS) {
      onTyping("typing");
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

  const choose = (member: InternalChatMemberAnswer) => {
    if (!mention) return;
    const next = insertMention(text, mention.start, caret, member.name);
    pendingCaret.current = next.caret;
    setText(next.text);
  };

  const body = text.trim();
  const canSend = !!file || body.length > 0;

  const submit = () => {
    if (!canSend) return;
    onSend({ body, file });
    setText("");
    setFile(null);
    stopTyping();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (open && mention) {
      const count = candidates.length;
      if (event.key === "ArrowDown") setActive((current + 1) % count);
      else if (event.key === "ArrowUp") setActive((current - 1 + count) % count);
      else if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey) {
        const chosen = candidates[current];
        if (chosen) choose(chosen);
      } else if (event.key === "Escape") setDismissedAt(mention.start);
      else return;
      event.preventDefault();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit();
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
    setText(text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  return (
    <div className="relative shrink-0 border-t bg-background p-2 sm:p-3" data-testid="internal-composer">
      {open ? (
        <div className="absolute inset-x-2 bottom-full z-20 mb-1 overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-md sm:inset-x-3">
          <ul id={listId} role="listbox" aria-label={t`Mention a member`} className="max-h-64 overflow-y-auto p-1" data-testid="mention-suggestions">
            {candidates.map((member, index) => (
              <li
                key={member.memberId}
                id={optionId(index)}
                role="option"
                aria-selected={index === current}
                data-active={index === current ? "" : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => (index === current ? undefined : setActive(index))}
                onClick={() => choose(member)}
                className="flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm select-none data-[active]:bg-accent data-[active]:text-accent-foreground"
              >
                <Avatar name={member.name} src={member.image} className="size-6" />
                <span className="truncate">{member.name}</span>
              </li>
            ))}
          </ul>
          <p className="border-t px-2 py-1 text-[11px] text-muted-foreground">{t`↑↓ to choose · Enter to insert · Esc to close`}</p>
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
          data-testid="internal-composer-file"
          onChange={(event) => {
            pickFile(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        <textarea
          ref={inputRef}
          rows={1}
          value={text}
          maxLength={MAX_INTERNAL_MESSAGE_LENGTH}
          onChange={onChange}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onSelect={() => setCaret(inputRef.current?.selectionStart ?? text.length)}
          onBlur={stopTyping}
          aria-label={t`Message`}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(current) : undefined}
          data-testid="internal-chat-composer"
          placeholder={file ? t`Add a caption…` : t`Type a message… (@ mentions a member)`}
          className={cn(
            "max-h-[200px] min-h-9 flex-1 resize-none rounded-md border border-input bg-background px-3 py-2 text-sm leading-5 outline-none placeholder:truncate placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring/60",
          )}
        />
        <Button size="icon" onClick={submit} disabled={!canSend} aria-label={t`Send message`} data-testid="internal-chat-send">
          <SendHorizontal />
        </Button>
      </div>
    </div>
  );
}
