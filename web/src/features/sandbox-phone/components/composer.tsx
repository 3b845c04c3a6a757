/**
 * The phone's composer: text with Enter to send, a file picker (images, audio, video, documents),
 * voice notes recorded with MediaRecorder, and the customer's typing / recording presence.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { Mic, Paperclip, SendHorizontal, Square, X } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { TOAST_DURATION_MS } from "@/lib/notify";
import { formatDuration, MAX_MEDIA_BYTES, recordingMimeType } from "../lib/media";

/** How long after the last keystroke the customer counts as paused (ms). */
const TYPING_IDLE_MS = 3_000;

/** A file the customer sends. */
export type OutgoingFile = { blob: Blob; fileName: string; mime: string };

/** The composer; `disabled` while the phone is offline. */
export function Composer({
  onSendText,
  onSendFile,
  onPresence,
}: {
  onSendText: (text: string) => void;
  onSendFile: (file: OutgoingFile) => void;
  onPresence: (state: "typing" | "recording" | "paused") => void;
}) {
  const { t } = useLingui();
  const [text, setText] = useState("");
  const [recording, setRecording] = useState<{ startedAt: number } | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const typing = useRef<{ since: number; timer: ReturnType<typeof setTimeout> | undefined }>({ since: 0, timer: undefined });
  const recorder = useRef<{ media: MediaRecorder; chunks: Blob[]; cancelled: boolean } | null>(null);
  const presence = useRef(onPresence);
  presence.current = onPresence;

  useEffect(
    () => () => {
      if (typing.current.timer) clearTimeout(typing.current.timer);
      const active = recorder.current;
      if (active) {
        active.cancelled = true;
        active.media.stop();
      }
    },
    [],
  );

  useEffect(() => {
    if (!recording) return;
    const id = setInterval(() => setElapsed((Date.now() - recording.startedAt) / 1000), 250);
    return () => clearInterval(id);
  }, [recording]);

  const stopTyping = (report: boolean) => {
    if (typing.current.timer) clearTimeout(typing.current.timer);
    typing.current.timer = undefined;
    if (typing.current.since && report) presence.current("paused");
    typing.current.since = 0;
  };

  const onType = (value: string) => {
    setText(value);
    if (!value.trim()) {
      stopTyping(true);
      return;
    }
    if (!typing.current.since) {
      typing.current.since = Date.now();
      presence.current("typing");
    }
    if (typing.current.timer) clearTimeout(typing.current.timer);
    typing.current.timer = setTimeout(() => stopTyping(true), TYPING_IDLE_MS);
  };

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const body = text.trim();
    if (!body) return;
    stopTyping(false);
    onSendText(body);
    setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const pickFiles = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      if (file.size > MAX_MEDIA_BYTES) {
        toast.error(t`The file is too large. The sandbox phone sends files of up to 15 MB.`, { duration: TOAST_DURATION_MS });
        continue;
      }
      onSendFile({ blob: file, fileName: file.name, mime: file.type || "application/octet-stream" });
    }
    if (fileInput.current) fileInput.current.value = "";
  };

  const startRecording = async () => {
    if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) {
      toast.error(t`This browser cannot record audio. Attach an audio file instead.`, { duration: TOAST_DURATION_MS });
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      toast.error(t`Microphone access was denied. Attach an audio file instead.`, { duration: TOAST_DURATION_MS });
      return;
    }
    const mimeType = recordingMimeType((type) => MediaRecorder.isTypeSupported(type));
    const media = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const state = { media, chunks: new Array<Blob>(), cancelled: false };
    recorder.current = state;
    media.ondataavailable = (e) => {
      if (e.data.size > 0) state.chunks.push(e.data);
    };
    media.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      recorder.current = null;
      setRecording(null);
      setElapsed(0);
      presence.current("paused");
      if (state.cancelled || state.chunks.length === 0) return;
      const mime = (media.mimeType || mimeType || "audio/webm").split(";")[0] ?? "audio/webm";
      const extension = mime.includes("ogg") ? "ogg" : mime.includes("mp4") ? "m4a" : "webm";
      onSendFile({ blob: new Blob(state.chunks, { type: mime }), fileName: `voice-${Date.now()}.${extension}`, mime });
    };
    media.start();
    stopTyping(false);
    presence.current("recording");
    setRecording({ startedAt: Date.now() });
  };

  const finishRecording = (cancel: boolean) => {
    const active = recorder.current;
    if (!active) return;
    active.cancelled = cancel;
    active.media.stop();
  };

  if (recording) {
    return (
      <div className="flex items-center gap-2 bg-[#f0f2f5] px-2 py-2 dark:bg-[#202c33]">
        <Button variant="ghost" size="icon" onClick={() => finishRecording(true)} aria-label={t`Cancel recording`}>
          <X />
        </Button>
        <span className="flex flex-1 items-center gap-2 text-sm" role="status">
          <span className="size-2.5 animate-pulse rounded-full bg-red-500" aria-hidden />
          {t`Recording`} {formatDuration(elapsed)}
        </span>
        <Button size="icon" className="rounded-full bg-[#00a884] text-white hover:bg-[#00a884]/90" onClick={() => finishRecording(false)} aria-label={t`Send recording`}>
          <Square />
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={send} className="flex items-end gap-1.5 bg-[#f0f2f5] px-2 py-2 dark:bg-[#202c33]">
      <input
        ref={fileInput}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        accept="image/*,audio/*,video/*,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/plain,text/csv,application/zip"
        onChange={(e) => pickFiles(e.target.files)}
        data-testid="phone-file-input"
      />
      <Button variant="ghost" size="icon" className="shrink-0 rounded-full" onClick={() => fileInput.current?.click()} aria-label={t`Attach file`} title={t`Attach file`}>
        <Paperclip />
      </Button>
      <textarea
        value={text}
        onChange={(e) => onType(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => stopTyping(true)}
        rows={1}
        aria-label={t`Message`}
        placeholder={t`Message`}
        className="max-h-32 min-h-10 flex-1 resize-none rounded-3xl border-0 bg-white px-4 py-2.5 text-sm text-[#111b21] outline-none placeholder:text-[#667781] focus-visible:ring-2 focus-visible:ring-ring/60 dark:bg-[#2a3942] dark:text-[#e9edef] dark:placeholder:text-[#8696a0]"
      />
      <Button variant="ghost" size="icon" className="shrink-0 rounded-full" onClick={() => void startRecording()} aria-label={t`Record audio`} title={t`Record audio`}>
        <Mic />
      </Button>
      <Button type="submit" size="icon" className="shrink-0 rounded-full bg-[#00a884] text-white hover:bg-[#00a884]/90" disabled={!text.trim()} aria-label={t`Send`} title={t`Send`}>
        <SendHorizontal />
      </Button>
    </form>
  );
}
