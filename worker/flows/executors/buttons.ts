/**
 * Button blocks (link, list, number). Link in `url` mode sends a call-to-action URL message and
 * goes on; link in `buttons` mode, list and number send their choices and wait: a recognised
 * choice follows its `option:<id>` output, anything else is answered with the error message up to
 * the error limit, then `invalid`; silence until the response time takes `no_answer`.
 */
import { HANDLES, optionHandle } from "../../../schema/flows";
import type { OutboundMessage } from "../../channels/types";
import { asNumberedMenu, needsNumberedMenu, optionByNumber } from "../numbered-menu";
import { next, type Executor } from "../runtime";
import { choiceReplyId, matchChoice, retryOrInvalid, waitForReply } from "./waiting";

export const linkExecutor: Executor<"link"> = {
  enter(node, run) {
    const { data } = node;
    const body = run.render(data.message);
    if (data.mode === "url") {
      run.emit({ type: "send", nodeId: node.id, message: { type: "link", body, buttonText: run.render(data.buttonText), url: run.renderUrl(data.url) } });
      return next(HANDLES.next);
    }
    const footer = run.render(data.footer).trim();
    const message: OutboundMessage = {
      type: "buttons",
      body,
      buttons: data.buttons.map((button) => ({ id: choiceReplyId(node.id, button.id), title: run.render(button.title) })),
      ...(footer ? { footer } : {}),
    };
    // A channel without reply buttons gets a numbered menu (flows/numbered-menu.ts).
    const menu = needsNumberedMenu(run.context, "buttons", data.buttons.length);
    run.emit({ type: "send", nodeId: node.id, message: menu ? asNumberedMenu(message) : message });
    return waitForReply(run, node.id, data.responseTimeSeconds);
  },
  reply(node, run, reply, wait) {
    const { data } = node;
    const byNumber = data.mode === "buttons" && needsNumberedMenu(run.context, "buttons", data.buttons.length) ? optionByNumber(data.buttons, reply.body) : null;
    const chosen = data.mode === "buttons" ? (byNumber ?? matchChoice(run, node.id, data.buttons, reply)) : null;
    return chosen ? next(optionHandle(chosen.id)) : retryOrInvalid(run, node.id, node.data, wait);
  },
  timer: () => next(HANDLES.noAnswer),
};

export const listExecutor: Executor<"list"> = {
  enter(node, run) {
    const { data } = node;
    const message: OutboundMessage = {
      type: "list",
      body: run.render(data.message),
      buttonText: run.render(data.buttonText),
      sections: [
        {
          title: run.render(data.sectionTitle),
          rows: data.responses.map((response) => {
            const description = run.render(response.description).trim();
            return { id: choiceReplyId(node.id, response.id), title: run.render(response.title), ...(description ? { description } : {}) };
          }),
        },
      ],
    };
    // A channel without lists gets a numbered menu (flows/numbered-menu.ts).
    run.emit({ type: "send", nodeId: node.id, message: needsNumberedMenu(run.context, "list", data.responses.length) ? asNumberedMenu(message) : message });
    return waitForReply(run, node.id, data.responseTimeSeconds);
  },
  reply(node, run, reply, wait) {
    const byNumber = needsNumberedMenu(run.context, "list", node.data.responses.length) ? optionByNumber(node.data.responses, reply.body) : null;
    const chosen = byNumber ?? matchChoice(run, node.id, node.data.responses, reply);
    return chosen ? next(optionHandle(chosen.id)) : retryOrInvalid(run, node.id, node.data, wait);
  },
  timer: () => next(HANDLES.noAnswer),
};

/** "2", "2.", "2)" or "2 -": the option's number as typed. */
const DIGIT_ANSWER = /^\s*(\d{1,2})\s*[.)-]?\s*$/;

export const numberExecutor: Executor<"number"> = {
  enter(node, run) {
    const { data } = node;
    const menu = data.options.map((option, index) => `${index + 1}. ${run.render(option.title)}`).join("\n");
    const intro = run.render(data.message);
    run.emit({ type: "send", nodeId: node.id, message: { type: "text", body: intro ? `${intro}\n\n${menu}` : menu } });
    return waitForReply(run, node.id, data.responseTimeSeconds);
  },
  reply(node, run, reply, wait) {
    const digit = DIGIT_ANSWER.exec(reply.body);
    const byNumber = digit ? node.data.options[Number(digit[1]) - 1] : undefined;
    const chosen = byNumber ?? matchChoice(run, node.id, node.data.options, reply);
    return chosen ? next(optionHandle(chosen.id)) : retryOrInvalid(run, node.id, node.data, wait);
  },
  timer: () => next(HANDLES.noAnswer),
};
