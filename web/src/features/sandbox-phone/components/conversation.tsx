/**
 * The conversation of the customer the phone plays with the company: the transcript loaded on
 * open (and again after a reconnection, to catch up), live lines from the socket, the company's
 * typing / recording indicator, ticks on the customer's messages, read receipts for the company's
 * messages while the page is visible, and the composer.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { ArrowLeft, RefreshCw } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/error-messages";
import { fetchTranscript, isUnpaired, sendPhoneEvents } from "../api/phone-api";
import { displayPhone, type Customer, type Device, type PhoneStore } from "../lib/device-store";
import { blobToBase64, MAX_MEDIA_BYTES } from "../lib/media";
import type { DeviceEvent, PhoneEntry, PhoneEvent, SendableType } from "../lib/protocol";
import {
  applyRead,
  applyReadUpTo,
  describeEntry,
  mergeEntries,
  sendableTypeOf,
  setEntryStatus,
  unreadCompanyMessages,
} from "../lib/transcript";
import { Composer, type OutgoingFile } from "./composer";
import { MessageBubble, type ReplyChoice } from "./message-bubble";

/** A listener registration for socket events (the page owns the socket). */
export type Subscribe = (listener: (event: DeviceEvent) => void) => () => void;

type Load = { status: "loading" } | { status: "ready" } | { status: "error"; error: unknown };

function newMessageId(): string {
  return `sbx-${crypto.randomUUID()}`;
}

function isVisible(): boolean {
  return typeof document === "undefined" || document.visibilityState === "visible";
}

/** The chat with the company as `customer`. Mount it with `key={customer.phone}`. */
export function Conversation({
  device,
  customer,
  store,
  subscribe,
  catchUp,
  online,
  onUnpaired,
  onBack,
}: {
  device: Device;
  customer: Customer;
  store: PhoneStore;
  subscribe: Subscribe;
  /** Changes after each reconnection: the transcript is loaded again. */
  catchUp: number;
  online: boolean;
  onUnpaired: () => void;
  onBack: () => void;
}) {
  const { t, i18n } = useLingui();
  const [entries, setEntries] = useState<PhoneEntry[]>([]);
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [companyPresence, setCompanyPresence] = useState<"typing" | "recording" | null>(null);
  const [localMedia, setLocalMedia] = useState<ReadonlyMap<string, string>>(() => new Map());
  const outbox = useRef(new Map<string, Extract<PhoneEvent, { kind: "message" }>>());
  const reported = useRef(new Set<string>());
  const scroller = useRef<HTMLDivElement>(null);
  const unpaired = useRef(onUnpaired);
  unpaired.current = onUnpaired;
  const token = device.token;
  const phone = customer.phone;
  const connectionId = device.connection.id;
  const companyName = device.connection.name;

  // The transcript: on open, on retry, and after each reconnection.
  useEffect(() => {
    const controller = new AbortController();
    fetchTranscript(token, phone, controller.signal)
      .then((answer) => {
        const lines: PhoneEntry[] = answer.transcript.map((e) => ({ ...e }));
        setEntries((current) => applyReadUpTo(mergeEntries(current, lines), store.readUpTo(connectionId, phone)));
        setLoad({ status: "ready" });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (isUnpaired(error)) unpaired.current();
        else setLoad({ status: "error", error });
      });
    return () => controller.abort();
  }, [token, phone, connectionId, store, attempt, catchUp]);

  // Live lines, presence and read receipts of this customer.
  useEffect(() => {
    let presenceTimer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribe((event) => {
      if (event.type === "message" && event.entry.phone === phone) {
        const entry = event.entry;
        setEntries((current) => mergeEntries(current, [{ ...entry }]));
        if (entry.direction === "to_customer") setCompanyPresence(null);
      } else if (event.type === "presence" && event.phone === phone) {
        if (presenceTimer) clearTimeout(presenceTimer);
        if (event.state === "paused") setCompanyPresence(null);
        else {
          setCompanyPresence(event.state);
          // A lost "paused" must not leave the indicator on for ever.
          presenceTimer = setTimeout(() => setCompanyPresence(null), 25_000);
        }
      } else if (event.type === "read" && event.phone === phone) {
        setEntries((current) => {
          const { entries: next, upTo } = applyRead(current, event.externalId);
          if (upTo !== null) store.markRead(connectionId, phone, upTo);
          return next;
        });
      }
    });
    return () => {
      off();
      if (presenceTimer) clearTimeout(presenceTimer);
    };
  }, [subscribe, phone, store, connectionId]);

  // Read receipts for the company's messages on screen (while the page is visible).
  const [visibleTick, setVisibleTick] = useState(0);
  useEffect(() => {
    const onVisible = () => setVisibleTick((n) => n + 1);
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, []);
  useEffect(() => {
    if (load.status !== "ready" || !isVisible()) return;
    const ids = unreadCompanyMessages(entries, reported.current);
    if (ids.length === 0) return;
    for (const id of ids) reported.current.add(id);
    setEntries((current) => ids.reduce((list, id) => setEntryStatus(list, id, "read"), current));
    void sendPhoneEvents(
      token,
      ids.map((id) => ({ kind: "status", id, status: "read" })),
    ).catch((error: unknown) => {
      if (isUnpaired(error)) unpaired.current();
      else for (const id of ids) reported.current.delete(id);
    });
  }, [entries, load.status, visibleTick, token]);

  // Object URLs of media sent from this page are released when the conversation closes.
  const mediaRef = useRef(localMedia);
  mediaRef.current = localMedia;
  useEffect(() => () => {
    for (const url of mediaRef.current.values()) URL.revokeObjectURL(url);
  }, []);

  // Keep the newest line in view.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries.length, companyPresence]);

  const deliver = useCallback(
    async (event: Extract<PhoneEvent, { kind: "message" }>) => {
      outbox.current.set(event.id, event);
      try {
        await sendPhoneEvents(token, [event]);
        outbox.current.delete(event.id);
        setEntries((current) => setEntryStatus(current, event.id, "sent"));
      } catch (error) {
        if (isUnpaired(error)) unpaired.current();
        else setEntries((current) => setEntryStatus(current, event.id, "failed"));
      }
    },
    [token],
  );

  const post = (type: SendableType, body: string, extra: { media?: { mime: string; fileName?: string; dataBase64: string }; replyId?: string } = {}) => {
    const id = newMessageId();
    const at = Date.now();
    const message = { type, body, ...(extra.media ? { media: { mime: extra.media.mime, fileName: extra.media.fileName } } : {}) };
    setEntries((current) => mergeEntries(current, [{ id, phone, direction: "from_customer", message, status: "pending", at }]));
    void deliver({ kind: "message", id, from: phone, name: customer.name, timestamp: at, type, body, ...extra });
    return id;
  };

  const sendFile = async (file: OutgoingFile) => {
    if (file.blob.size > MAX_MEDIA_BYTES) return;
    const dataBase64 = await blobToBase64(file.blob);
    const type = sendableTypeOf(file.mime);
    const id = post(type, type === "document" ? file.fileName : "", { media: { mime: file.mime, fileName: file.fileName, dataBase64 } });
    const url = URL.createObjectURL(file.blob);
    setLocalMedia((current) => new Map(current).set(id, url));
  };

  const reply = (choice: ReplyChoice) => post(choice.type, choice.title, { replyId: choice.id });

  const retry = (id: string) => {
    const event = outbox.current.get(id);
    if (!event) return;
    setEntries((current) => setEntryStatus(current, id, "pending"));
    void deliver(event);
  };

  const presence = (state: "typing" | "recording" | "paused") => {
    void sendPhoneEvents(token, [{ kind: "presence", from: phone, state }]).catch((error: unknown) => {
      if (isUnpaired(error)) unpaired.current();
    });
  };

  const origin = typeof window === "undefined" ? "http://localhost" : window.location.origin;
  const customerName = customer.name;
  const customerPhone = displayPhone(phone);
  const subtitle = !online
    ? t`Reconnecting…`
    : companyPresence === "typing"
      ? t`typing…`
      : companyPresence === "recording"
        ? t`recording audio…`
        : t`You are ${customerName} (${customerPhone})`;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex items-center gap-2 bg-[#008069] px-2 py-2 text-white dark:bg-[#202c33]">
        <Button variant="ghost" size="icon" className="text-white hover:bg-white/10 hover:text-white" onClick={onBack} aria-label={t`Back to customers`}>
          <ArrowLeft />
        </Button>
        <div className="grid min-w-0 flex-1">
          <h1 className="truncate text-base font-semibold">{companyName}</h1>
          <p className="truncate text-xs opacity-80" aria-live="polite" data-testid="phone-presence">
            {subtitle}
          </p>
        </div>
      </header>
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-y-auto bg-[#efeae2] px-3 py-3 dark:bg-[#0b141a]"
        role="log"
        aria-label={t`Conversation with ${companyName}`}
        aria-busy={load.status === "loading"}
      >
        <div className="grid gap-1.5">
          {load.status === "loading" && entries.length === 0 ? (
            <div className="flex justify-center py-6">
              <Spinner className="size-6 text-muted-foreground" label={t`Loading the conversation…`} />
            </div>
          ) : null}
          {load.status === "error" ? (
            <Alert variant="destructive">
              <div className="grid gap-2">
                <p>{i18n._(errorMessage(load.error))}</p>
                <Button
                  variant="outline"
                  size="sm"
                  className="justify-self-start"
                  onClick={() => {
                    setLoad({ status: "loading" });
                    setAttempt((n) => n + 1);
                  }}
                >
                  <RefreshCw />
                  {t`Try again`}
                </Button>
              </div>
            </Alert>
          ) : null}
          {load.status === "ready" && entries.length === 0 ? (
            <p className="mx-auto my-6 max-w-xs rounded-lg bg-[#ffeecd] px-3 py-2 text-center text-xs text-[#54656f] dark:bg-[#182229] dark:text-[#8696a0]">
              {t`No messages yet. Write to ${companyName} as ${customerName}.`}
            </p>
          ) : null}
          {entries.map((entry) => (
            <MessageBubble
              key={entry.id}
              view={describeEntry(entry, origin, localMedia)}
              fromCustomer={entry.direction === "from_customer"}
              at={entry.at}
              status={entry.status}
              onReply={reply}
              onRetry={() => retry(entry.id)}
              repliesDisabled={false}
            />
          ))}
          {companyPresence ? (
            <div className="flex justify-start" aria-hidden>
              <span className="flex gap-1 rounded-lg rounded-tl-none bg-white px-3 py-3 shadow-sm dark:bg-[#202c33]">
                <span className="size-1.5 animate-bounce rounded-full bg-[#8696a0]" />
                <span className="size-1.5 animate-bounce rounded-full bg-[#8696a0] [animation-delay:150ms]" />
                <span className="size-1.5 animate-bounce rounded-full bg-[#8696a0] [animation-delay:300ms]" />
              </span>
            </div>
          ) : null}
        </div>
      </div>
      <Composer onSendText={(text) => post("text", text)} onSendFile={(file) => void sendFile(file)} onPresence={presence} />
    </div>
  );
}
