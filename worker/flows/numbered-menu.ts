/**
 * Interactive messages on channels that cannot show them (issue 15 "Channel capabilities"): where a
 * block would send reply buttons or a list and the run's channel lacks them
 * (`FlowContext.capabilities`, from the connection's adapter), a numbered text menu is sent instead:
 *
 *     Pick one
 *
 *     1. Sales — Buy something
 *     2. Support
 *
 * and the customer's answer is matched by its number ("2", "2.", "2)") or, as on every channel, by
 * the option's title (case and accents ignored; `matchChoice`). Channels that show buttons and
 * lists (WhatsApp Cloud API, the sandbox phone) are unchanged: the number is not read there.
 * Pure: the browser's test run uses it too.
 */
import type { OutboundMessage } from "../channels/types";
import type { FlowContext } from "./types";

/** An option of a menu as sent (its reply id and title, and a list row's description). */
type MenuOption = { id: string; title: string; description?: string };

/** "2", "2.", "2)" or "2 -": an option's number as typed. */
const NUMBER_ANSWER = /^\s*(\d{1,2})\s*[.)-]?\s*$/;

/**
 * Whether the run's channel needs a numbered menu instead of `kind` with `count` options: it lacks
 * the kind, or (buttons) allows fewer than `count`. No `capabilities` (the editor's test run, a
 * caller that does not know the channel): the interactive message is sent as it is.
 */
export function needsNumberedMenu(context: Pick<FlowContext, "capabilities">, kind: "buttons" | "list", count: number): boolean {
  const caps = context.capabilities;
  if (!caps) return false;
  if (kind === "list") return !caps.lists;
  return !caps.buttons || (caps.maxButtons !== undefined && count > caps.maxButtons);
}

/** The text of a numbered menu: the message, a blank line, one "N. Title" line per option (a list row's description after " — "), then the footer. */
export function numberedMenuText(body: string, options: readonly MenuOption[], footer?: string): string {
  const lines = options.map((option, index) => `${index + 1}. ${option.title}${option.description ? ` — ${option.description}` : ""}`);
  return [body.trim(), lines.join("\n"), footer?.trim() ?? ""].filter(Boolean).join("\n\n");
}

/**
 * A buttons or list message as a numbered text menu (other messages are answered unchanged). The
 * list's rows of every section are numbered in order.
 */
export function asNumberedMenu(message: OutboundMessage): OutboundMessage {
  if (message.type === "buttons") return { type: "text", body: numberedMenuText(message.body, message.buttons, message.footer) };
  if (message.type === "list") return { type: "text", body: numberedMenuText(message.body, message.sections.flatMap((section) => section.rows)) };
  return message;
}

/** The option whose number the reply typed (1-based), or null. */
export function optionByNumber<T>(options: readonly T[], body: string): T | null {
  const typed = NUMBER_ANSWER.exec(body);
  return typed ? (options[Number(typed[1]) - 1] ?? null) : null;
}
