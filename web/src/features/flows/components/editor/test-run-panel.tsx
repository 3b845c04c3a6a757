/**
 * The test run (issue 5 "Beyond the anchors"): a phone preview that runs the current draft with the
 * same engine as production, in the browser, through lib/test-run.ts. Bot messages are bubbles,
 * buttons and list rows are clickable, replies are typed, short waits run by themselves and any
 * wait can be skipped, integration requests are answered by the tester. The block the run is on is
 * highlighted on the canvas. No contact, message or request is real.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { FastForward, FileText, Link2, RotateCcw, Send, Smartphone, User, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import type { OutboundMessage } from "../../../../../../worker/channels/types";
import { flowFieldsQuery } from "../../api/flows-api";
import { ACTION_KIND_LABELS, problemText, WARNING_LABELS } from "../../lib/labels";
import { answerHttp, currentBlock, fireNextTimer, isRunning, nextTimer, replyTestRun, startTestRun, testContact, type TestSession, type TranscriptItem } from "../../lib/test-run";
import { currentDocument, useEditorStoreApi, useEditor } from "../../store/editor-store";
import type { FlowProblem } from "../../../../../../schema/flows";
import { viewerTimeZone } from "@/lib/dates";

/** Waits at most this long (ms) run by themselves; longer ones wait for "Skip the wait". */
const AUTO_TIMER_MS = 30_000;

function BotMessage({ message, onChoose, active }: { message: OutboundMessage; onChoose: (title: string, id: string) => void; active: boolean }) {
  const { t } = useLingui();
  const bubble = "max-w-[85%] rounded-lg rounded-tl-none bg-white px-3 py-2 text-sm text-neutral-900 shadow-sm dark:bg-neutral-800 dark:text-neutral-100";
  switch (message.type) {
    case "text":
      return <div className={cn(bubble, "whitespace-pre-line")}>{message.body}</div>;
    case "buttons":
      return (
        <div className="grid max-w-[85%] gap-1">
          <div className={cn(bubble, "max-w-full whitespace-pre-line")}>{message.body}</div>
          {message.buttons.map((button) => (
            <button
              key={button.id}
              type="button"
              disabled={!active}
              onClick={() => onChoose(button.title, button.id)}
              className="rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-sky-600 shadow-sm outline-none hover:bg-sky-50 focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60 dark:bg-neutral-800 dark:text-sky-400"
            >
              {button.title}
            </button>
          ))}
        </div>
      );
    case "list":
      return (
        <div className="grid max-w-[85%] gap-1">
          <div className={cn(bubble, "max-w-full whitespace-pre-line")}>{message.body}</div>
          <div className="rounded-lg bg-white p-1 shadow-sm dark:bg-neutral-800" role="group" aria-label={message.buttonText}>
            <p className="px-2 py-1 text-xs font-medium text-sky-600 dark:text-sky-400">{message.buttonText}</p>
            {message.sections.flatMap((section) =>
              section.rows.map((row) => (
                <button
                  key={row.id}
                  type="button"
                  disabled={!active}
                  onClick={() => onChoose(row.title, row.id)}
                  className="block w-full rounded px-2 py-1 text-left text-sm outline-none hover:bg-sky-50 focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60 dark:hover:bg-neutral-700"
                >
                  <span className="block">{row.title}</span>
                  {row.description ? <span className="block text-xs text-muted-foreground">{row.description}</span> : null}
                </button>
              )),
            )}
          </div>
        </div>
      );
    case "link":
      return (
        <div className={cn(bubble, "grid gap-2")}>
          <span className="whitespace-pre-line">{message.body}</span>
          <span className="flex items-center justify-center gap-1 border-t pt-2 text-sky-600 dark:text-sky-400" title={message.url}>
            <Link2 className="size-3.5" aria-hidden />
            {message.buttonText}
          </span>
        </div>
      );
    case "contact":
      return (
        <div className={cn(bubble, "flex items-center gap-2")}>
          <User className="size-4" aria-hidden />
          <span>
            {message.contact.name} · {message.contact.phone}
          </span>
        </div>
      );
    default: {
      const name = message.media.fileName ?? message.media.url.split("/").pop() ?? "";
      return (
        <div className={cn(bubble, "grid gap-1")}>
          <span className="flex items-center gap-2 text-xs text-muted-foreground">
            <FileText className="size-4" aria-hidden />
            {name || t`no file yet`}
          </span>
          {message.caption ? <span className="whitespace-pre-line">{message.caption}</span> : null}
        </div>
      );
    }
  }
}

function EffectLine({ item, session, onHttp }: { item: Extract<TranscriptItem, { kind: "effect" }>; session: TestSession; onHttp: (ok: boolean) => void }) {
  const { t, i18n } = useLingui();
  const { effect } = item;
  let text: string;
  switch (effect.type) {
    case "set_field": {
      const variable = `{{${effect.key}}}`;
      const value = effect.value;
      text = t`Field ${variable} = "${value}"`;
      break;
    }
    case "add_tag":
      text = t`Tag added: ${effect.tag}`;
      break;
    case "remove_tag":
      text = t`Tag removed: ${effect.tag}`;
      break;
    case "ticket":
      text = i18n._(ACTION_KIND_LABELS[effect.action === "open" ? "open_ticket" : effect.action === "close" ? "close_ticket" : "transfer_ticket"]);
      break;
    case "custom_event":
      text = t`Custom event: ${effect.name}`;
      break;
    case "add_to_cycle":
      text = t`Added to a shipping cycle.`;
      break;
    case "notify":
      text = t`Members notified: ${effect.text}`;
      break;
    case "http":
      text = t`Request: ${effect.request.method} ${effect.request.url}`;
      break;
    case "pixel":
      text = t`Pixel event: ${effect.event.event_name}`;
      break;
    case "start_flow":
      text = t`Continues in another flow.`;
      break;
    case "presence":
      text = effect.state === "typing" ? t`typing…` : t`recording audio…`;
      break;
    case "warning": {
      const reason = i18n._(WARNING_LABELS[effect.code]);
      text = t`Skipped: ${reason}`;
      break;
    }
  }
  const pending = effect.type === "http" && session.http?.token === effect.token;
  return (
    <div className="grid justify-items-center gap-1">
      <p className="rounded-full bg-black/5 px-3 py-0.5 text-center text-[11px] text-neutral-600 dark:bg-white/10 dark:text-neutral-300">{text}</p>
      {pending ? (
        <div className="flex gap-1">
          <Button size="sm" variant="outline" className="h-7 text-xs" onClick={() => onHttp(true)}>
            {t`Simulate success`}
          </Button>
          <Button size="sm" variant="outline" className="h-7 text-xs" onClick={() => onHttp(false)}>
            {t`Simulate failure`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The phone preview panel. */
export function TestRunPanel({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  const store = useEditorStoreApi();
  const setTestNode = useEditor((state) => state.setTestNode);
  const fields = useQuery(flowFieldsQuery());
  const [session, setSession] = useState<TestSession | null>(null);
  const [problems, setProblems] = useState<FlowProblem[]>([]);
  const [text, setText] = useState("");
  const skew = useRef(0);
  const scroller = useRef<HTMLDivElement>(null);
  const now = () => Date.now() + skew.current;

  const start = () => {
    skew.current = 0;
    const fieldTypes = Object.fromEntries((fields.data ?? []).map((field) => [field.key, field.type]));
    const started = startTestRun(currentDocument(store.getState()), {
      now: now(),
      contact: testContact(t`Test contact`),
      timezone: viewerTimeZone(),
      fieldTypes,
    });
    if (started.ok) {
      setProblems([]);
      setSession(started.session);
    } else {
      setSession(null);
      setProblems(started.problems);
    }
  };

  // Starts once on open; "Restart" starts again with the draft as it is then.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  });

  useEffect(() => {
    setTestNode(session ? currentBlock(session) : null);
    scroller.current?.scrollTo({ top: scroller.current.scrollHeight });
  }, [session, setTestNode]);
  useEffect(() => () => setTestNode(null), [setTestNode]);

  // Short waits (a delay, a response time) run by themselves.
  const timer = session ? nextTimer(session) : null;
  useEffect(() => {
    if (!timer) return;
    const wait = timer.at - (Date.now() + skew.current);
    if (wait > AUTO_TIMER_MS) return;
    const handle = window.setTimeout(() => setSession((current) => (current ? fireNextTimer(current, Date.now() + skew.current) : current)), Math.max(0, wait));
    return () => window.clearTimeout(handle);
  }, [timer]);

  const skip = () => {
    if (!session || !timer) return;
    skew.current += Math.max(0, timer.at - now());
    setSession(fireNextTimer(session, now()));
  };

  const reply = (body: string, replyId?: string) => {
    if (!session || !body.trim()) return;
    setSession(replyTestRun(session, body, now(), replyId));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    reply(text);
    setText("");
  };

  const running = session ? isRunning(session) : false;
  const end = session?.transcript.findLast((item) => item.kind === "end");

  return (
    <aside aria-label={t`Test run`} className="flex h-full w-full flex-col border-l bg-background sm:w-96" data-testid="test-run-panel">
      <div className="flex items-center justify-between gap-2 border-b p-3">
        <div className="flex items-center gap-2">
          <Smartphone className="size-4 text-muted-foreground" aria-hidden />
          <h2 className="text-sm font-semibold">{t`Test run`}</h2>
        </div>
        <div className="flex gap-1">
          <Button size="sm" variant="outline" onClick={start} aria-label={t`Restart the test run`}>
            <RotateCcw />
            <span className="hidden sm:inline">{t`Restart`}</span>
          </Button>
          <Button size="icon" variant="ghost" onClick={onClose} aria-label={t`Close the test run`}>
            <X />
          </Button>
        </div>
      </div>
      <p className="border-b px-3 py-2 text-xs text-muted-foreground">{t`Runs this draft in your browser. Nothing is sent to real contacts.`}</p>
      <div ref={scroller} className="flex-1 overflow-y-auto bg-[#e5ddd5] p-3 dark:bg-neutral-900" aria-live="polite" data-testid="test-run-transcript">
        <div className="grid gap-2">
          {problems.length ? (
            <div className="rounded-md bg-background p-3 text-sm">
              <p className="font-medium">{t`This draft cannot run yet:`}</p>
              <ul className="mt-1 list-disc pl-5 text-xs">
                {problems.map((problem, index) => (
                  <li key={index}>{problemText(i18n, problem)}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {session?.transcript.map((item) => {
            switch (item.kind) {
              case "bot":
                return (
                  <div key={item.id} className="flex justify-start">
                    <BotMessage message={item.message} active={running && session.run.wait?.kind === "reply" && session.run.wait.nodeId === item.nodeId} onChoose={(title, id) => reply(title, id)} />
                  </div>
                );
              case "user":
                return (
                  <div key={item.id} className="flex justify-end">
                    <div className="max-w-[85%] rounded-lg rounded-tr-none bg-[#d9fdd3] px-3 py-2 text-sm whitespace-pre-line text-neutral-900 shadow-sm dark:bg-emerald-900 dark:text-neutral-100">{item.text}</div>
                  </div>
                );
              case "effect":
                return <EffectLine key={item.id} item={item} session={session} onHttp={(ok) => setSession(answerHttp(session, ok, now()))} />;
              case "end":
                return null;
            }
          })}
          {end && end.kind === "end" ? (
            <p className="justify-self-center rounded-full bg-background px-3 py-1 text-xs" data-testid="test-run-end">
              {end.status === "done" ? t`The run ended.` : t`The run stopped with an error: ${end.message ?? ""}`}
            </p>
          ) : null}
        </div>
      </div>
      {timer && running ? (
        <div className="flex items-center justify-between gap-2 border-t px-3 py-2 text-xs text-muted-foreground">
          <span>{t`Waiting…`}</span>
          <Button size="sm" variant="outline" onClick={skip}>
            <FastForward />
            {t`Skip the wait`}
          </Button>
        </div>
      ) : null}
      <form onSubmit={submit} className="flex gap-2 border-t p-3">
        <Input value={text} onChange={(event) => setText(event.target.value)} placeholder={t`Type a reply`} aria-label={t`Reply as the contact`} disabled={!running} />
        <Button type="submit" size="icon" aria-label={t`Send reply`} disabled={!running || !text.trim()}>
          <Send />
        </Button>
      </form>
    </aside>
  );
}
