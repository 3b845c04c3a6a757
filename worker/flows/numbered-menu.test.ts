/**
 * Issue 15 "Channel capabilities": buttons and lists on a channel without them go out as a numbered
 * text menu, and the customer's "2" or the option's title both choose the second option; on a
 * channel with them (WhatsApp Cloud API) nothing changes.
 */
import { describe, expect, it } from "vitest";
import { EVOLUTION_CAPABILITIES } from "../channels/evolution";
import { WHATSAPP_CLOUD_CAPABILITIES } from "../channels/whatsapp-cloud";
import { startRun, step } from "./engine";
import { asNumberedMenu, needsNumberedMenu } from "./numbered-menu";
import { build, context, sent, texts, type TestNode } from "./test-helpers";
import type { FlowEvent } from "./types";

/** start → block → (handle → text "<handle>") for each handle. */
function around(block: TestNode, handles: string[]) {
  const tails: TestNode[] = handles.map((handle) => ({ id: `after-${handle}`, type: "text", data: { message: handle } }));
  return build(
    [{ id: "s", type: "start" }, block, ...tails],
    [["s", "next", block.id], ...handles.map((handle): [string, string, string] => [block.id, handle, `after-${handle}`])],
  );
}

const reply = (body: string): FlowEvent => ({ kind: "reply", type: "text", body });
const qr = () => context({ capabilities: EVOLUTION_CAPABILITIES });
const cloud = () => context({ capabilities: WHATSAPP_CLOUD_CAPABILITIES });

const buttons: TestNode = {
  id: "l",
  type: "link",
  data: { mode: "buttons", message: "Pick one", footer: "Reply with a number", buttons: [{ id: "yes", title: "Sim" }, { id: "no", title: "Não, obrigado" }], errorMessage: "Pick 1 or 2", errorLimit: 1 },
};
const buttonHandles = ["option:yes", "option:no", "invalid", "no_answer"];

const list: TestNode = {
  id: "li",
  type: "list",
  data: {
    message: "Menu",
    buttonText: "Open",
    sectionTitle: "Options",
    responses: [{ id: "a", title: "Sales", description: "Buy" }, { id: "b", title: "Suporte técnico" }, { id: "c", title: "Billing" }],
    errorLimit: 0,
  },
};
const listHandles = ["option:a", "option:b", "option:c", "invalid", "no_answer"];

describe("buttons on a channel without buttons", () => {
  it("are sent as a numbered text menu (message, options, footer)", () => {
    const first = startRun(around(buttons, buttonHandles), qr());
    expect(sent(first.effects)).toEqual([{ type: "text", body: "Pick one\n\n1. Sim\n2. Não, obrigado\n\nReply with a number" }]);
    expect(first.state.status).toBe("waiting");
  });

  it.each(["2", " 2. ", "2)", "nao, OBRIGADO"])("the answer %j chooses the second option", (answer) => {
    const flow = around(buttons, buttonHandles);
    const chosen = step(flow, startRun(flow, qr()).state, reply(answer), qr());
    expect(chosen.accepted).toBe(true);
    expect(texts(chosen.effects)).toEqual(["option:no"]);
  });

  it("a number out of range is an invalid answer (error message, then invalid)", () => {
    const flow = around(buttons, buttonHandles);
    const retry = step(flow, startRun(flow, qr()).state, reply("3"), qr());
    expect(texts(retry.effects)).toEqual(["Pick 1 or 2"]);
    expect(texts(step(flow, retry.state, reply("0"), qr()).effects)).toEqual(["invalid"]);
  });

  it("more buttons than the channel allows also become a numbered menu", () => {
    expect(needsNumberedMenu({ capabilities: { buttons: true, lists: true, maxButtons: 3 } }, "buttons", 4)).toBe(true);
    expect(needsNumberedMenu({ capabilities: { buttons: true, lists: true, maxButtons: 3 } }, "buttons", 3)).toBe(false);
  });
});

describe("lists on a channel without lists", () => {
  it("are sent as a numbered text menu with the rows' descriptions", () => {
    const first = startRun(around(list, listHandles), qr());
    expect(sent(first.effects)).toEqual([{ type: "text", body: "Menu\n\n1. Sales — Buy\n2. Suporte técnico\n3. Billing" }]);
  });

  it.each(["2", "suporte tecnico", "  SUPORTE TÉCNICO "])("the answer %j chooses the second option", (answer) => {
    const flow = around(list, listHandles);
    expect(texts(step(flow, startRun(flow, qr()).state, reply(answer), qr()).effects)).toEqual(["option:b"]);
  });
});

describe("on WhatsApp Cloud API nothing changes", () => {
  it("buttons and lists are sent as interactive messages", () => {
    expect(sent(startRun(around(buttons, buttonHandles), cloud()).effects)[0]?.type).toBe("buttons");
    expect(sent(startRun(around(list, listHandles), cloud()).effects)[0]?.type).toBe("list");
  });

  it("a typed number is not an option there (the title still is)", () => {
    const flow = around(list, listHandles);
    const state = startRun(flow, cloud()).state;
    expect(texts(step(flow, state, reply("2"), cloud()).effects)).toEqual(["invalid"]);
    expect(texts(step(flow, state, reply("suporte tecnico"), cloud()).effects)).toEqual(["option:b"]);
  });
});

describe("asNumberedMenu", () => {
  it("numbers the rows of every section in order and leaves other messages alone", () => {
    const menu = asNumberedMenu({
      type: "list",
      body: "Pick",
      buttonText: "Open",
      sections: [
        { title: "A", rows: [{ id: "1", title: "One" }] },
        { title: "B", rows: [{ id: "2", title: "Two" }] },
      ],
    });
    expect(menu).toEqual({ type: "text", body: "Pick\n\n1. One\n2. Two" });
    expect(asNumberedMenu({ type: "text", body: "hi" })).toEqual({ type: "text", body: "hi" });
  });
});
