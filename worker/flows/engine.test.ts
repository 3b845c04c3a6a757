/** The engine as a whole: long flows, the loop guard, restarts, stops, purity. */
import { describe, expect, it } from "vitest";
import { validateFlow } from "../../schema/flows";
import { buildLinearFlow, runSyntheticFlow, syntheticContext } from "./bench";
import { applyContactEffects, applyRotaryEffects, compileFlow, initialRunState, startRun, step } from "./engine";
import { build, context, doc, NOW, ofType, texts } from "./test-helpers";
import { MAX_STEPS_WITHOUT_WAIT, type FlowRunState } from "./types";

describe("long flows and the loop guard", () => {
  it("runs a 200-block flow to the end in one step", () => {
    const compiled = compileFlow(buildLinearFlow(200));
    expect(compiled.ok && compiled.problems).toEqual([]);
    if (!compiled.ok) return;
    const result = startRun(compiled.flow, syntheticContext());
    expect(result.state).toMatchObject({ status: "done", endReason: "end", steps: 200, nodeId: "b199", error: null });
    expect(result.visited).toHaveLength(200);
    expect(ofType(result.effects, "send")).toHaveLength(51);
    expect(texts(result.effects)[0]).toBe("Hello Ana, step 1");
  });

  it("runSyntheticFlow reports steps per second", () => {
    const report = runSyntheticFlow(200, 5);
    expect(report).toMatchObject({ blocks: 200, iterations: 5, steps: 1000 });
    expect(report.stepsPerSecond).toBeGreaterThan(0);
  });

  it("stops a loop without a waiting block with a clear loop_guard error", () => {
    const nodes = [{ id: "s", type: "start" }, { id: "a", type: "text", data: { message: "ping" } }, { id: "b", type: "action", data: { actions: [{ kind: "add_tag", tag: "x" }] } }];
    const edges: [string, string, string][] = [["s", "next", "a"], ["a", "next", "b"], ["b", "next", "a"]];
    expect(validateFlow(doc(nodes, edges)).find((p) => p.code === "loop_without_wait")).toMatchObject({ severity: "warning", nodeId: "a" });
    const result = startRun(build(nodes, edges), context());
    expect(result.state.status).toBe("failed");
    expect(result.state.error?.code).toBe("loop_guard");
    expect(result.state.error?.message).toContain(`${MAX_STEPS_WITHOUT_WAIT} blocks`);
    expect(result.visited).toHaveLength(MAX_STEPS_WITHOUT_WAIT);
    expect(result.state.wait).toBeNull();
  });

  it("a loop through a waiting block is fine: each step waits", () => {
    const nodes = [{ id: "s", type: "start" }, { id: "r", type: "receive", data: { message: "again?" } }];
    const edges: [string, string, string][] = [["s", "next", "r"], ["r", "answered", "r"]];
    expect(validateFlow(doc(nodes, edges)).some((p) => p.code === "loop_without_wait")).toBe(false);
    const flow = build(nodes, edges);
    let state = startRun(flow, context()).state;
    for (let i = 0; i < 3; i += 1) {
      const result = step(flow, state, { kind: "reply", type: "text", body: "yes" }, context());
      expect(texts(result.effects)).toEqual(["again?"]);
      state = result.state;
    }
    expect(state.status).toBe("waiting");
  });

  it("honours a lower guard from the context", () => {
    const flow = build(
      [{ id: "s", type: "start" }, { id: "a", type: "text", data: { message: "1" } }, { id: "b", type: "text", data: { message: "2" } }],
      [["s", "next", "a"], ["a", "next", "b"]],
    );
    expect(startRun(flow, context({ maxStepsWithoutWait: 2 })).state.error?.code).toBe("loop_guard");
  });
});

describe("run lifecycle", () => {
  const flow = build(
    [{ id: "s", type: "start" }, { id: "r", type: "receive", data: { message: "Name?", responseTimeSeconds: 600 } }, { id: "t", type: "text", data: { message: "thanks" } }],
    [["s", "next", "r"], ["r", "answered", "t"]],
  );

  it("never modifies the state it is given, and its state is plain JSON", () => {
    const first = startRun(flow, context());
    const frozen: FlowRunState = JSON.parse(JSON.stringify(first.state));
    step(flow, first.state, { kind: "reply", type: "text", body: "Ana" }, context());
    expect(first.state).toEqual(frozen);
    expect(JSON.parse(JSON.stringify(first.state))).toEqual(first.state);
    expect(first.state).toMatchObject({ version: 1, status: "waiting", nodeId: "r", since: NOW, startedAt: NOW, updatedAt: NOW });
  });

  it("a reply to a finished run is not taken", () => {
    const done = step(flow, startRun(flow, context()).state, { kind: "reply", type: "text", body: "Ana" }, context());
    expect(done.state.status).toBe("done");
    const again = step(flow, done.state, { kind: "reply", type: "text", body: "hello" }, context());
    expect(again).toMatchObject({ accepted: false, effects: [] });
  });

  it("stop ends a waiting run and disarms its timer", () => {
    const first = startRun(flow, context());
    const stopped = step(flow, first.state, { kind: "stop" }, context());
    expect(stopped.state).toMatchObject({ status: "done", endReason: "stopped", wait: null });
    expect(ofType(stopped.effects, "cancel_timer").map((e) => e.token)).toEqual(ofType(first.effects, "set_timer").map((e) => e.token));
    // The disarmed timer, delivered anyway, is ignored.
    const token = ofType(first.effects, "set_timer")[0]?.token ?? "";
    expect(step(flow, stopped.state, { kind: "timer", token }, context()).accepted).toBe(false);
  });

  it("start restarts a waiting run from the start block with fresh tokens", () => {
    const first = startRun(flow, context());
    const restarted = step(flow, first.state, { kind: "start" }, context({ now: NOW + 1000 }));
    expect(texts(restarted.effects)).toEqual(["Name?"]);
    expect(ofType(restarted.effects, "cancel_timer")).toHaveLength(1);
    const oldToken = ofType(first.effects, "set_timer")[0]?.token;
    expect(ofType(restarted.effects, "set_timer")[0]?.token).not.toBe(oldToken);
    expect(restarted.state.startedAt).toBe(NOW + 1000);
  });

  it("fails with missing_block when the state points at a block the flow does not have", () => {
    const state: FlowRunState = { ...initialRunState(), status: "waiting", nodeId: "gone", wait: { kind: "reply", nodeId: "gone", deadline: null, token: null, errors: 0 } };
    const result = step(flow, state, { kind: "reply", type: "text", body: "x" }, context());
    expect(result.state.status).toBe("failed");
    expect(result.state.error).toMatchObject({ code: "missing_block", nodeId: "gone" });
  });

  it("two replies in a row are applied in order", () => {
    const two = build(
      [{ id: "s", type: "start" }, { id: "r1", type: "receive", data: { fieldKey: "city" } }, { id: "r2", type: "receive", data: { fieldKey: "age" } }, { id: "t", type: "text", data: { message: "{{city}} {{age}}" } }],
      [["s", "next", "r1"], ["r1", "answered", "r2"], ["r2", "answered", "t"]],
    );
    const first = startRun(two, context());
    const a = step(two, first.state, { kind: "reply", type: "text", body: "Natal" }, context());
    const ctx = context({ contact: applyContactEffects(context().contact, a.effects) });
    const b = step(two, a.state, { kind: "reply", type: "text", body: "7" }, ctx);
    expect(texts(b.effects)).toEqual(["Natal 7"]);
  });
});

describe("test-run helpers", () => {
  it("applyContactEffects applies fields, built-ins and tags", () => {
    const contact = applyContactEffects(context().contact, [
      { type: "set_field", nodeId: "x", key: "city", value: "Natal" },
      { type: "set_field", nodeId: "x", key: "email", value: "new@example.com" },
      { type: "add_tag", nodeId: "x", tag: "lead" },
      { type: "remove_tag", nodeId: "x", tag: "vip" },
    ]);
    expect(contact).toMatchObject({ email: "new@example.com", fields: { city: "Natal", age: "30" }, tags: ["lead"] });
  });

  it("applyRotaryEffects counts rotary_advance", () => {
    expect(applyRotaryEffects({ a: 2 }, [{ type: "rotary_advance", nodeId: "a" }, { type: "rotary_advance", nodeId: "b" }])).toEqual({ a: 3, b: 1 });
  });
});
