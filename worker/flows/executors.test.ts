/** One test per executor path (issue 5 "One test per executor for its paths"). */
import { describe, expect, it } from "vitest";
import { startRun, step } from "./engine";
import { choiceReplyId } from "./executors/waiting";
import { hashPixelUserData } from "./pixel";
import { build, context, NOW, ofType, sent, texts, type TestNode } from "./test-helpers";
import type { FlowContext, FlowEvent, FlowRunState } from "./types";

const END: TestNode = { id: "end", type: "text", data: { message: "the end" } };

/** start → block → (handle → text "<handle>") for each handle. */
function around(block: TestNode, handles: string[]) {
  const tails: TestNode[] = handles.map((handle) => ({ id: `after-${handle}`, type: "text", data: { message: handle } }));
  return build(
    [{ id: "s", type: "start" }, block, ...tails],
    [["s", "next", block.id], ...handles.map((handle): [string, string, string] => [block.id, handle, `after-${handle}`])],
  );
}

function reply(body: string, replyId?: string): FlowEvent {
  return { kind: "reply", type: "text", body, ...(replyId ? { replyId } : {}) };
}

describe("content blocks", () => {
  it("text sends its message with variables filled, then follows next", () => {
    const flow = build(
      [{ id: "s", type: "start" }, { id: "t", type: "text", data: { message: "Hi {{first_name}} from {{city}}{{missing}}!" } }, END],
      [["s", "next", "t"], ["t", "next", "end"]],
    );
    const result = startRun(flow, context());
    expect(texts(result.effects)).toEqual(["Hi Ana from Recife!", "the end"]);
    expect(result.state.status).toBe("done");
    expect(result.state.endReason).toBe("end");
    expect(result.visited).toEqual(["s", "t", "end"]);
  });

  it.each([
    ["image", "image", true],
    ["video", "video", true],
    ["file", "document", true],
    ["audio", "audio", false],
    ["ptv", "ptv", false],
  ])("%s sends a %s message (caption: %s)", (blockType, messageType, hasCaption) => {
    const flow = around({ id: "m", type: blockType, data: { media: { url: "https://cdn.example.com/f.bin", mime: "", fileName: "f.pdf" }, message: "For {{first_name}}" } }, ["next"]);
    const [message] = sent(startRun(flow, context()).effects);
    expect(message).toMatchObject({ type: messageType, media: { url: "https://cdn.example.com/f.bin", fileName: "f.pdf" } });
    if (message && "media" in message) {
      expect(message.media.mime).not.toBe("");
      expect(message.caption).toBe(hasCaption ? "For Ana" : undefined);
    }
  });

  it("contact sends a contact card with organization, name and phone", () => {
    const flow = around({ id: "k", type: "contact", data: { name: "Support", phone: "+551140000000", organization: "ACME" } }, ["next"]);
    expect(sent(startRun(flow, context()).effects)[0]).toEqual({ type: "contact", contact: { name: "Support", phone: "+551140000000", organization: "ACME" } });
  });
});

describe("link", () => {
  it("in url mode sends a call-to-action URL message with variables URI-encoded, then follows next", () => {
    const flow = around({ id: "l", type: "link", data: { mode: "url", message: "Pay here", buttonText: "Pay", url: "https://pay.example.com/?city={{city}}&n={{full_name}}" } }, ["next"]);
    const result = startRun(flow, context());
    expect(sent(result.effects)[0]).toEqual({ type: "link", body: "Pay here", buttonText: "Pay", url: "https://pay.example.com/?city=Recife&n=Ana%20Maria%20Souza" });
    expect(texts(result.effects)).toEqual(["next"]);
  });

  const buttons = { id: "l", type: "link", data: { mode: "buttons", message: "Pick", buttons: [{ id: "yes", title: "Yes" }, { id: "no", title: "Não" }], errorMessage: "Tap a button", errorLimit: 1, responseTimeSeconds: 60 } };
  const handles = ["option:yes", "option:no", "invalid", "no_answer"];

  it("in buttons mode sends reply buttons and follows the clicked button's output", () => {
    const flow = around(buttons, handles);
    const first = startRun(flow, context());
    expect(sent(first.effects)[0]).toEqual({ type: "buttons", body: "Pick", buttons: [{ id: "l:yes", title: "Yes" }, { id: "l:no", title: "Não" }] });
    expect(first.state.status).toBe("waiting");
    const clicked = step(flow, first.state, reply("Yes", choiceReplyId("l", "yes")), context());
    expect(clicked.accepted).toBe(true);
    expect(texts(clicked.effects)).toEqual(["option:yes"]);
    expect(ofType(clicked.effects, "cancel_timer")).toHaveLength(1);
  });

  it("in buttons mode accepts the title typed (case and accents ignored)", () => {
    const flow = around(buttons, handles);
    const typed = step(flow, startRun(flow, context()).state, reply("  nao "), context());
    expect(texts(typed.effects)).toEqual(["option:no"]);
  });

  it("in buttons mode answers the error message, then takes invalid after the error limit", () => {
    const flow = around(buttons, handles);
    const retry = step(flow, startRun(flow, context()).state, reply("maybe"), context());
    expect(texts(retry.effects)).toEqual(["Tap a button"]);
    expect(retry.state.status).toBe("waiting");
    const invalid = step(flow, retry.state, reply("perhaps"), context());
    expect(texts(invalid.effects)).toEqual(["invalid"]);
  });

  it("in buttons mode takes no_answer when the response time passes", () => {
    const flow = around(buttons, handles);
    const first = startRun(flow, context());
    const [timer] = ofType(first.effects, "set_timer");
    expect(timer?.at).toBe(NOW + 60_000);
    const fired = step(flow, first.state, { kind: "timer", token: timer?.token ?? "" }, context({ now: NOW + 60_000 }));
    expect(texts(fired.effects)).toEqual(["no_answer"]);
  });
});

describe("list", () => {
  const list = {
    id: "li",
    type: "list",
    data: { message: "Menu", buttonText: "Open", sectionTitle: "Options", responses: [{ id: "a", title: "Sales", description: "Buy" }, { id: "b", title: "Support" }], errorLimit: 0 },
  };
  const handles = ["option:a", "option:b", "invalid", "no_answer"];

  it("sends an interactive list and follows the chosen response", () => {
    const flow = around(list, handles);
    const first = startRun(flow, context());
    expect(sent(first.effects)[0]).toEqual({
      type: "list",
      body: "Menu",
      buttonText: "Open",
      sections: [{ title: "Options", rows: [{ id: "li:a", title: "Sales", description: "Buy" }, { id: "li:b", title: "Support" }] }],
    });
    expect(ofType(first.effects, "wait_reply")).toEqual([{ type: "wait_reply", nodeId: "li", deadline: null }]);
    expect(ofType(first.effects, "set_timer")).toEqual([]);
    expect(texts(step(flow, first.state, { kind: "reply", type: "list_reply", body: "Support", replyId: "li:b" }, context()).effects)).toEqual(["option:b"]);
  });

  it("takes invalid at once with an error limit of 0", () => {
    const flow = around(list, handles);
    expect(texts(step(flow, startRun(flow, context()).state, reply("what?"), context()).effects)).toEqual(["invalid"]);
  });

  it("ignores a click on another block's row", () => {
    const flow = around(list, handles);
    expect(texts(step(flow, startRun(flow, context()).state, reply("x", "other:a"), context()).effects)).toEqual(["invalid"]);
  });
});

describe("number", () => {
  const menu = { id: "n", type: "number", data: { message: "Choose:", options: [{ id: "x", title: "Sales" }, { id: "y", title: "Support" }], errorMessage: "Type 1 or 2", errorLimit: 2, responseTimeSeconds: 30 } };
  const handles = ["option:x", "option:y", "invalid", "no_answer"];

  it("sends a numbered menu and follows the option of the digit", () => {
    const flow = around(menu, handles);
    const first = startRun(flow, context());
    expect(texts(first.effects)).toEqual(["Choose:\n\n1. Sales\n2. Support"]);
    expect(texts(step(flow, first.state, reply(" 2. "), context()).effects)).toEqual(["option:y"]);
  });

  it("accepts the option's title", () => {
    const flow = around(menu, handles);
    expect(texts(step(flow, startRun(flow, context()).state, reply("sales"), context()).effects)).toEqual(["option:x"]);
  });

  it("retries out-of-range digits up to the limit, then takes invalid", () => {
    const flow = around(menu, handles);
    let state = startRun(flow, context()).state;
    for (const attempt of ["9", "0"]) {
      const result = step(flow, state, reply(attempt), context());
      expect(texts(result.effects)).toEqual(["Type 1 or 2"]);
      state = result.state;
    }
    expect(state.wait).toMatchObject({ kind: "reply", errors: 2 });
    expect(texts(step(flow, state, reply("3"), context()).effects)).toEqual(["invalid"]);
  });

  it("takes no_answer when its timer fires", () => {
    const flow = around(menu, handles);
    const first = startRun(flow, context());
    const token = ofType(first.effects, "set_timer")[0]?.token ?? "";
    expect(texts(step(flow, first.state, { kind: "timer", token }, context({ now: NOW + 30_000 })).effects)).toEqual(["no_answer"]);
  });
});

describe("start and action", () => {
  it("start follows next", () => {
    const result = startRun(around({ id: "t", type: "text", data: { message: "hi" } }, ["next"]), context());
    expect(result.visited[0]).toBe("s");
  });

  it("action adds and removes tags, opens, transfers and closes the ticket, records custom events, in order", () => {
    const actions = [
      { kind: "add_tag", tag: "lead" },
      { kind: "remove_tag", tag: "vip" },
      { kind: "open_ticket" },
      { kind: "transfer_ticket", memberId: "m1" },
      { kind: "transfer_ticket" },
      { kind: "close_ticket" },
      { kind: "custom_event", name: "qualified" },
    ];
    const flow = build(
      [{ id: "s", type: "start" }, { id: "a", type: "action", data: { actions } }, { id: "c", type: "condition", data: { match: "all", rules: [{ kind: "tag", op: "has", tag: "lead" }, { kind: "tag", op: "has_not", tag: "vip" }] } }, { id: "yes", type: "text", data: { message: "tags seen" } }],
      [["s", "next", "a"], ["a", "next", "c"], ["c", "true", "yes"]],
    );
    const { effects } = startRun(flow, context());
    expect(effects.filter((e) => e.type !== "send").map((e) => e.type)).toEqual(["add_tag", "remove_tag", "ticket", "ticket", "ticket", "ticket", "custom_event"]);
    expect(ofType(effects, "ticket").map((e) => [e.action, e.memberId])).toEqual([["open", null], ["transfer", "m1"], ["transfer", null], ["close", null]]);
    expect(ofType(effects, "custom_event")[0]?.name).toBe("qualified");
    expect(texts(effects)).toEqual(["tags seen"]);
  });
});

describe("condition", () => {
  function decide(rules: unknown[], match: "all" | "any" = "all", ctx: FlowContext = context()): string | undefined {
    const flow = around({ id: "c", type: "condition", data: { match, rules } }, ["true", "false"]);
    return texts(startRun(flow, ctx).effects)[0];
  }
  const field = (key: string, op: string, value = "") => ({ kind: "field", key, op, value });

  it.each([
    [field("city", "equals", "recife"), "true"],
    [field("city", "equals", "Olinda"), "false"],
    [field("city", "not_equals", "Olinda"), "true"],
    [field("city", "contains", "CIF"), "true"],
    [field("city", "not_contains", "cif"), "false"],
    [field("age", "equals", "30.0"), "true"],
    [field("age", "greater", "9"), "true"],
    [field("age", "less", "9"), "false"],
    [field("age", "greater", "{{age}}"), "false"],
    [field("birthday", "empty"), "true"],
    [field("city", "empty"), "false"],
    [field("city", "not_empty"), "true"],
    [field("birthday", "greater", "1"), "false"],
    [{ kind: "tag", op: "has", tag: "vip" }, "true"],
    [{ kind: "tag", op: "has_not", tag: "vip" }, "false"],
    [{ kind: "weekday", days: [1] }, "true"],
    [{ kind: "weekday", days: [0, 6] }, "false"],
    [{ kind: "time", from: "08:00", to: "18:00" }, "true"],
    [{ kind: "time", from: "12:00", to: "18:00" }, "false"],
    [{ kind: "time", from: "22:00", to: "09:30" }, "true"],
  ])("%j → %s (Monday 09:00 in São Paulo)", (rule, expected) => {
    expect(decide([rule])).toBe(expected);
  });

  it("combines rules with all / any", () => {
    const rules = [field("city", "equals", "Recife"), { kind: "tag", op: "has", tag: "nope" }];
    expect(decide(rules, "all")).toBe("false");
    expect(decide(rules, "any")).toBe("true");
  });

  it("reads day and time in the company's time zone", () => {
    // 02:00 UTC Tuesday is 23:00 Monday in São Paulo.
    const late = context({ now: Date.UTC(2025, 0, 7, 2, 0) });
    expect(decide([{ kind: "weekday", days: [1] }], "all", late)).toBe("true");
    expect(decide([{ kind: "time", from: "22:00", to: "23:30" }], "all", late)).toBe("true");
  });

  it("falls back to UTC with a warning when the company's zone is unknown", () => {
    const flow = around({ id: "c", type: "condition", data: { rules: [{ kind: "time", from: "12:00", to: "13:00" }] } }, ["true", "false"]);
    const result = startRun(flow, context({ company: { timezone: "Mars/Olympus", fieldTypes: {} } }));
    expect(texts(result.effects)).toEqual(["true"]);
    expect(ofType(result.effects, "warning")[0]?.code).toBe("bad_timezone");
  });
});

describe("delay", () => {
  it("a short delay shows the indicator for the whole wait and continues when its timer fires", () => {
    const flow = around({ id: "d", type: "delay", data: { seconds: 5, indicator: "typing" } }, ["next"]);
    const first = startRun(flow, context());
    expect(ofType(first.effects, "presence")).toEqual([{ type: "presence", nodeId: "d", state: "typing", durationMs: 5000 }]);
    const [timer] = ofType(first.effects, "set_timer");
    expect(timer?.at).toBe(NOW + 5000);
    expect(first.state).toMatchObject({ status: "waiting", wait: { kind: "timer", phase: "end" } });
    const done = step(flow, first.state, { kind: "timer", token: timer?.token ?? "" }, context({ now: NOW + 5000 }));
    expect(texts(done.effects)).toEqual(["next"]);
  });

  it("a long delay shows recording only for the last 25 s", () => {
    const flow = around({ id: "d", type: "delay", data: { seconds: 120, indicator: "recording" } }, ["next"]);
    const first = startRun(flow, context());
    expect(ofType(first.effects, "presence")).toEqual([]);
    const early = ofType(first.effects, "set_timer")[0];
    expect(early?.at).toBe(NOW + 95_000);
    const shown = step(flow, first.state, { kind: "timer", token: early?.token ?? "" }, context({ now: NOW + 95_000 }));
    expect(ofType(shown.effects, "presence")).toEqual([{ type: "presence", nodeId: "d", state: "recording", durationMs: 25_000 }]);
    const end = ofType(shown.effects, "set_timer")[0];
    expect(end?.at).toBe(NOW + 120_000);
    expect(texts(step(flow, shown.state, { kind: "timer", token: end?.token ?? "" }, context({ now: NOW + 120_000 })).effects)).toEqual(["next"]);
  });

  it("without indicator shows nothing", () => {
    const flow = around({ id: "d", type: "delay", data: { seconds: 60, indicator: "none" } }, ["next"]);
    const first = startRun(flow, context());
    expect(ofType(first.effects, "presence")).toEqual([]);
    expect(ofType(first.effects, "set_timer")[0]?.at).toBe(NOW + 60_000);
  });

  it("a late presence alarm (after a restart) goes straight on", () => {
    const flow = around({ id: "d", type: "delay", data: { seconds: 120 } }, ["next"]);
    const first = startRun(flow, context());
    const token = ofType(first.effects, "set_timer")[0]?.token ?? "";
    const late = step(flow, first.state, { kind: "timer", token }, context({ now: NOW + 500_000 }));
    expect(ofType(late.effects, "presence")).toEqual([]);
    expect(texts(late.effects)).toEqual(["next"]);
  });

  it("a reply during the delay is queued and answers the question asked after it", () => {
    const flow = build(
      [
        { id: "s", type: "start" },
        { id: "d", type: "delay", data: { seconds: 10 } },
        { id: "n", type: "number", data: { message: "Pick", options: [{ id: "a", title: "A" }, { id: "b", title: "B" }], responseTimeSeconds: 3600 } },
        { id: "b", type: "text", data: { message: "you chose B" } },
      ],
      [["s", "next", "d"], ["d", "next", "n"], ["n", "option:b", "b"]],
    );
    const first = startRun(flow, context());
    const during = step(flow, first.state, reply("2"), context({ now: NOW + 3000 }));
    expect(during.accepted).toBe(true);
    expect(during.effects).toEqual([]);
    expect(during.state.queue).toHaveLength(1);
    expect(during.state.wait?.kind).toBe("timer");
    const token = ofType(first.effects, "set_timer")[0]?.token ?? "";
    const after = step(flow, during.state, { kind: "timer", token }, context({ now: NOW + 10_000 }));
    expect(texts(after.effects)).toEqual(["Pick\n\n1. A\n2. B", "you chose B"]);
    // The menu's no-answer timer was armed and, the answer being there already, disarmed.
    expect(ofType(after.effects, "set_timer").map((e) => e.token)).toEqual(ofType(after.effects, "cancel_timer").map((e) => e.token));
    expect(after.state.status).toBe("done");
  });

  it("ignores a stale timer token", () => {
    const flow = around({ id: "d", type: "delay", data: { seconds: 10 } }, ["next"]);
    const first = startRun(flow, context());
    const stale = step(flow, first.state, { kind: "timer", token: "d#999" }, context({ now: NOW + 10_000 }));
    expect(stale).toEqual({ state: first.state, effects: [], accepted: false, visited: [] });
  });
});

describe("notification, random, rotary", () => {
  it("notification alerts the chosen members with the message filled", () => {
    const flow = around({ id: "no", type: "notification", data: { memberIds: ["m1", "m2"], message: "{{full_name}} needs help" } }, ["next"]);
    expect(ofType(startRun(flow, context()).effects, "notify")).toEqual([{ type: "notify", nodeId: "no", memberIds: ["m1", "m2"], text: "Ana Maria Souza needs help" }]);
  });

  it.each([
    [0, "option:a"],
    [0.24, "option:a"],
    [0.26, "option:b"],
    [0.99, "option:b"],
  ])("random with weights 1:3 and random() = %d picks %s", (value, expected) => {
    const flow = around({ id: "r", type: "random", data: { outputs: [{ id: "a", weight: 1 }, { id: "b", weight: 3 }] } }, ["option:a", "option:b"]);
    expect(texts(startRun(flow, context({ random: () => value })).effects)).toEqual([expected]);
  });

  it("rotary hands contacts to its outputs in turn and advances its counter", () => {
    const flow = around({ id: "ro", type: "rotary", data: { outputs: [{ id: "a" }, { id: "b" }, { id: "c" }] } }, ["option:a", "option:b", "option:c"]);
    const picks = [0, 1, 2, 3].map((count) => texts(startRun(flow, context({ rotary: { ro: count } })).effects)[0]);
    expect(picks).toEqual(["option:a", "option:b", "option:c", "option:a"]);
    expect(ofType(startRun(flow, context()).effects, "rotary_advance")).toEqual([{ type: "rotary_advance", nodeId: "ro" }]);
  });
});

describe("receive", () => {
  const receive = (data: Record<string, unknown>) => around({ id: "r", type: "receive", data: { message: "Your age?", errorMessage: "A number, please", errorLimit: 1, ...data } }, ["answered", "invalid", "no_answer"]);

  it("validates the answer by the field's type, saves it and takes answered", () => {
    const flow = receive({ fieldKey: "age" });
    const first = startRun(flow, context());
    expect(texts(first.effects)).toEqual(["Your age?"]);
    const answered = step(flow, first.state, reply("41,5"), context());
    expect(ofType(answered.effects, "set_field")).toEqual([{ type: "set_field", nodeId: "r", key: "age", value: "41.5" }]);
    expect(texts(answered.effects)).toEqual(["answered"]);
  });

  it.each([
    ["birthday", "25/12/1990", "1990-12-25"],
    ["contact_email", " Joe@Example.COM ", "joe@example.com"],
    ["cpf", "529.982.247-25", "52998224725"],
    ["email", "me@example.org", "me@example.org"],
  ])("saves a %s answer normalised", (fieldKey, answer, stored) => {
    const flow = receive({ fieldKey });
    const answered = step(flow, startRun(flow, context()).state, reply(answer), context());
    expect(ofType(answered.effects, "set_field")[0]?.value).toBe(stored);
  });

  it("answers the error message for an invalid answer, then takes invalid after the error limit", () => {
    const flow = receive({ fieldKey: "birthday" });
    const retry = step(flow, startRun(flow, context()).state, reply("tomorrow"), context());
    expect(texts(retry.effects)).toEqual(["A number, please"]);
    expect(ofType(retry.effects, "set_field")).toEqual([]);
    const invalid = step(flow, retry.state, reply("31/02/2000"), context());
    expect(texts(invalid.effects)).toEqual(["invalid"]);
  });

  it("without a field accepts any reply", () => {
    const flow = receive({ fieldKey: "" });
    const answered = step(flow, startRun(flow, context()).state, { kind: "reply", type: "image", body: "" }, context());
    expect(texts(answered.effects)).toEqual(["answered"]);
  });

  it("with a 3-day response time arms a timer at now + 3 days; firing it later (state through JSON) takes no_answer", () => {
    const threeDays = 3 * 86_400;
    const flow = receive({ fieldKey: "age", responseTimeSeconds: threeDays });
    const first = startRun(flow, context());
    const [timer] = ofType(first.effects, "set_timer");
    expect(timer?.at).toBe(NOW + threeDays * 1000);
    expect(ofType(first.effects, "wait_reply")[0]?.deadline).toBe(NOW + threeDays * 1000);
    const stored: FlowRunState = JSON.parse(JSON.stringify(first.state));
    expect(stored).toEqual(first.state);
    const fired = step(flow, stored, { kind: "timer", token: timer?.token ?? "" }, context({ now: NOW + threeDays * 1000 + 1500 }));
    expect(fired.accepted).toBe(true);
    expect(texts(fired.effects)).toEqual(["no_answer"]);
    expect(fired.state.status).toBe("done");
  });

  it("a reply after the deadline, before the alarm, takes no_answer and is left for the pipeline", () => {
    const flow = receive({ fieldKey: "age", responseTimeSeconds: 60 });
    const late = step(flow, startRun(flow, context()).state, reply("30"), context({ now: NOW + 61_000 }));
    expect(late.accepted).toBe(false);
    expect(texts(late.effects)).toEqual(["no_answer"]);
    expect(ofType(late.effects, "set_field")).toEqual([]);
  });
});

describe("save", () => {
  const save = (data: Record<string, unknown>, fields: Record<string, string> = { price: "10", city: "Recife", age: "30" }) =>
    startRun(around({ id: "sv", type: "save", data }, ["next"]), context({ contact: { ...context().contact, fields } })).effects;

  it("sets a field to a value with variables", () => {
    expect(ofType(save({ fieldKey: "city", value: "{{city}} PE" }), "set_field")).toEqual([{ type: "set_field", nodeId: "sv", key: "city", value: "Recife PE" }]);
  });

  it("sets a field to a formula's result", () => {
    expect(ofType(save({ fieldKey: "total", mode: "formula", value: "({{price}} - 2) * {{age}} / 4" }), "set_field")[0]?.value).toBe("60");
  });

  it("sets nothing and warns when the formula misses a value", () => {
    const effects = save({ fieldKey: "total", mode: "formula", value: "{{price}} * {{score}}" });
    expect(ofType(effects, "set_field")).toEqual([]);
    expect(ofType(effects, "warning")[0]).toMatchObject({ code: "formula_failed" });
    expect(texts(effects)).toEqual(["next"]);
  });

  it("sets nothing and warns when the value does not fit the field's type", () => {
    const effects = save({ fieldKey: "age", value: "{{city}}" });
    expect(ofType(effects, "set_field")).toEqual([]);
    expect(ofType(effects, "warning")[0]).toMatchObject({ code: "invalid_value" });
  });

  it("the next blocks of the same step see the value saved", () => {
    const flow = build(
      [{ id: "s", type: "start" }, { id: "sv", type: "save", data: { fieldKey: "city", value: "Olinda" } }, { id: "t", type: "text", data: { message: "in {{city}}" } }],
      [["s", "next", "sv"], ["sv", "next", "t"]],
    );
    expect(texts(startRun(flow, context()).effects)).toEqual(["in Olinda"]);
  });
});

describe("flow connection", () => {
  it("starts the other flow and ends this run", () => {
    const flow = build([{ id: "s", type: "start" }, { id: "fc", type: "flow_connection", data: { flowId: "flow-2" } }], [["s", "next", "fc"]]);
    const result = startRun(flow, context());
    expect(ofType(result.effects, "start_flow")).toEqual([{ type: "start_flow", nodeId: "fc", flowId: "flow-2" }]);
    expect(result.state).toMatchObject({ status: "done", endReason: "flow_connection" });
  });
});

describe("integration", () => {
  const integration = (data: Record<string, unknown>) => around({ id: "i", type: "integration", data }, ["success", "failure"]);

  it("makes the request with variables, waits, saves the answer's values by path and takes success", () => {
    const flow = integration({
      method: "POST",
      url: "https://api.example.com/leads?city={{city}}",
      headers: [{ name: "Authorization", value: "Bearer abc" }],
      body: '{"name": "{{full_name}}", "note": "{{quote}}"}',
      save: [
        { path: "data.score", fieldKey: "score" },
        { path: "data.items.1.label", fieldKey: "city" },
        { path: "data.missing", fieldKey: "age" },
      ],
    });
    const ctx = context({ contact: { ...context().contact, fields: { city: "São Paulo", quote: 'say "hi"' } } });
    const first = startRun(flow, ctx);
    const [http] = ofType(first.effects, "http");
    expect(http?.request).toEqual({
      method: "POST",
      url: "https://api.example.com/leads?city=S%C3%A3o%20Paulo",
      headers: { Authorization: "Bearer abc", "content-type": "application/json" },
      body: '{"name": "Ana Maria Souza", "note": "say \\"hi\\""}',
      timeoutMs: 10_000,
    });
    expect(JSON.parse(http?.request.body ?? "")).toEqual({ name: "Ana Maria Souza", note: 'say "hi"' });
    expect(first.state.wait).toEqual({ kind: "http", nodeId: "i", token: http?.token });
    const answer = JSON.stringify({ data: { score: 87, items: [{ label: "a" }, { label: "Natal" }] } });
    const done = step(flow, first.state, { kind: "http_result", token: http?.token ?? "", ok: true, status: 200, body: answer }, ctx);
    expect(ofType(done.effects, "set_field").map((e) => [e.key, e.value])).toEqual([["score", "87"], ["city", "Natal"]]);
    expect(ofType(done.effects, "warning")[0]).toMatchObject({ code: "invalid_answer" });
    expect(texts(done.effects)).toEqual(["success"]);
  });

  it("takes failure on a non-2xx answer or a timeout", () => {
    const flow = integration({ url: "https://api.example.com/x" });
    const first = startRun(flow, context());
    const token = ofType(first.effects, "http")[0]?.token ?? "";
    expect(texts(step(flow, first.state, { kind: "http_result", token, ok: false, status: 500, body: "" }, context()).effects)).toEqual(["failure"]);
    expect(texts(step(flow, first.state, { kind: "http_result", token, ok: false, status: 0, body: "" }, context()).effects)).toEqual(["failure"]);
  });

  it.each([
    ["http://localhost:8787/api", "local_name"],
    ["http://10.0.0.5/", "private_address"],
    ["http://169.254.169.254/latest/meta-data", "private_address"],
    ["http://[::1]/", "private_address"],
    ["ftp://example.com/", "not_http"],
    ["http://{{city}}/", "local_name"],
  ])("refuses %s (%s): failure path with the guard's warning, no request", (url, reason) => {
    const result = startRun(integration({ url }), context());
    // The refusal is the guard's own (code and reason), not a failed request: no http effect at all.
    expect(ofType(result.effects, "http")).toEqual([]);
    const [warning] = ofType(result.effects, "warning");
    expect(warning).toMatchObject({ code: "url_refused" });
    expect(warning?.message).toContain(`(${reason})`);
    expect(texts(result.effects)).toEqual(["failure"]);
  });

  it("ignores an answer with another token, and queues a reply that arrives meanwhile", () => {
    const flow = integration({ url: "https://api.example.com/x" });
    const first = startRun(flow, context());
    expect(step(flow, first.state, { kind: "http_result", token: "i#42", ok: true, status: 200, body: "" }, context()).accepted).toBe(false);
    expect(step(flow, first.state, reply("hello?"), context()).state.queue).toHaveLength(1);
  });
});

describe("facebook pixel", () => {
  it("emits a Conversions API event with normalised user data and the value", () => {
    const flow = around({ id: "px", type: "facebook_pixel", data: { pixelId: "123456", accessToken: "tok", eventName: "Purchase", value: 19.9, currency: "BRL" } }, ["next"]);
    const result = startRun(flow, context());
    const [pixel] = ofType(result.effects, "pixel");
    expect(pixel).toMatchObject({ pixelId: "123456", accessToken: "tok", testEventCode: null });
    expect(pixel?.event).toMatchObject({
      event_name: "Purchase",
      event_time: NOW / 1000,
      action_source: "chat",
      user_data: { em: ["ana@example.com"], ph: ["5511999990000"], fn: ["ana"], ln: ["mariasouza"], external_id: ["c1"] },
      custom_data: { value: 19.9, currency: "BRL" },
    });
    expect(pixel?.event.event_id).toMatch(/^c1:px#\d+$/);
    expect(texts(result.effects)).toEqual(["next"]);
  });

  it("skips with a warning when the pixel is not configured", () => {
    const result = startRun(around({ id: "px", type: "facebook_pixel", data: {} }, ["next"]), context());
    expect(ofType(result.effects, "pixel")).toEqual([]);
    expect(ofType(result.effects, "warning")[0]).toMatchObject({ code: "missing_config" });
  });

  it("hashPixelUserData hashes every value with SHA-256 (lower-case hex)", async () => {
    expect(await hashPixelUserData({ fn: ["abc"], em: ["abc"] })).toEqual({
      em: ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
      fn: ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    });
  });
});
