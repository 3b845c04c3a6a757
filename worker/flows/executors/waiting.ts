/**
 * What the blocks that wait for the contact's answer share (receive, list, number, link with reply
 * buttons): arming the wait with its response time, recognising a choice, and the error-message /
 * error-limit retry.
 */
import { HANDLES } from "../../../schema/flows";
import { next, type Outcome, type StepRuntime } from "../runtime";
import type { InboundReply, ReplyWait } from "../types";

/**
 * The id a button or list row is sent with: `<nodeId>:<optionId>`, so a click on an old message
 * of another block never matches this block's options. The browser's test run sends it back as
 * the reply's `replyId`.
 */
export function choiceReplyId(nodeId: string, optionId: string): string {
  return `${nodeId}:${optionId}`;
}

/**
 * Pauses the run for a reply to `nodeId`: emits `wait_reply` and, when there is a response time,
 * `set_timer` at now + `responseTimeSeconds` for the `no_answer` output.
 */
export function waitForReply(run: StepRuntime, nodeId: string, responseTimeSeconds: number | null): Outcome {
  const deadline = responseTimeSeconds === null ? null : run.now + responseTimeSeconds * 1000;
  const token = deadline === null ? null : run.token(nodeId);
  run.emit({ type: "wait_reply", nodeId, deadline });
  if (deadline !== null && token !== null) run.emit({ type: "set_timer", nodeId, at: deadline, token });
  return { kind: "wait", wait: { kind: "reply", nodeId, deadline, token, errors: 0 } };
}

/**
 * An invalid answer: while fewer than `errorLimit` retries were made, sends `errorMessage` (when
 * not empty) and keeps waiting (same deadline); then takes `invalid`.
 */
export function retryOrInvalid(run: StepRuntime, nodeId: string, settings: { errorMessage: string; errorLimit: number }, wait: ReplyWait): Outcome {
  if (wait.errors >= settings.errorLimit) return next(HANDLES.invalid);
  if (settings.errorMessage.trim()) run.emit({ type: "send", nodeId, message: { type: "text", body: run.render(settings.errorMessage) } });
  return { kind: "wait", wait: { ...wait, errors: wait.errors + 1 } };
}

/** Lower-case, accents and surrounding spaces removed: how typed answers are compared with titles. */
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .trim()
    .toLowerCase();
}

/**
 * The option a reply chose: by the clicked button's/row's id (`choiceReplyId`), else by its text
 * equal to an option's rendered title (accent- and case-insensitive). Null when none.
 */
export function matchChoice<T extends { id: string; title: string }>(run: StepRuntime, nodeId: string, options: readonly T[], reply: InboundReply): T | null {
  if (reply.replyId) {
    const clicked = options.find((option) => choiceReplyId(nodeId, option.id) === reply.replyId);
    if (clicked) return clicked;
  }
  const typed = foldText(reply.body);
  if (!typed) return null;
  return options.find((option) => foldText(run.render(option.title)) === typed) ?? null;
}
