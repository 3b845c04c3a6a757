import { describe, expect, it } from "vitest";
import { emptyFlow, parseFlow, type FlowDocument } from "../../../../../schema/flows";
import { canRedo, canUndo, commit, createHistory, redo, undo, COALESCE_MS } from "./history";
import { copySelection, newBlock, pasteContent, pruneEdges, toCanvas, toDocument, withData, type EditorNode } from "./document";
import { answerHttp, currentBlock, fireNextTimer, nextTimer, replyTestRun, startTestRun, testContact } from "./test-run";

function parsed(doc: unknown): FlowDocument {
  const result = parseFlow(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.flow;
}

describe("history", () => {
  it("undoes and redoes in order, and a new commit clears redo", () => {
    let h = createHistory(1);
    h = commit(h, 2, { now: 0 });
    h = commit(h, 3, { now: 5000 });
    expect(canUndo(h)).toBe(true);
    h = undo(h);
    expect(h.present).toBe(2);
    h = undo(h);
    expect(h.present).toBe(1);
    expect(canUndo(h)).toBe(false);
    h = redo(h);
    expect(h.present).toBe(2);
    expect(canRedo(h)).toBe(true);
    h = commit(h, 9, { now: 9000 });
    expect(canRedo(h)).toBe(false);
    expect(undo(h).present).toBe(2);
  });

  it("merges commits of one key within the coalescing window into one step", () => {
    let h = createHistory("a");
    h = commit(h, "ab", { key: "n1", now: 1000 });
    h = commit(h, "abc", { key: "n1", now: 1000 + COALESCE_MS / 2 });
    expect(h.past).toEqual(["a"]);
    h = commit(h, "abcd", { key: "n1", now: 1000 + COALESCE_MS * 3 });
    expect(h.past).toEqual(["a", "abc"]);
    expect(undo(undo(h)).present).toBe("a");
  });

  it("does nothing when there is nothing to undo or redo", () => {
    const h = createHistory(0);
    expect(undo(h)).toBe(h);
    expect(redo(h)).toBe(h);
  });
});

describe("draft ↔ canvas", () => {
  it("round-trips a document and drops UI state", () => {
    const doc = parsed({
      version: 1,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "t", type: "text", position: { x: 200, y: 0 }, data: { message: "Hi" } },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "t" }],
    });
    const canvas = toCanvas(doc);
    expect(canvas.nodes[0]?.deletable).toBe(false);
    expect(canvas.nodes[1]?.deletable).toBe(true);
    const selected = canvas.nodes.map((node) => ({ ...node, selected: true, measured: { width: 10, height: 10 } }));
    const back = toDocument(selected, canvas.edges, { x: 1, y: 2, zoom: 1 });
    expect(back.nodes[1]).toEqual({ id: "t", type: "text", position: { x: 200, y: 0 }, data: { description: "", message: "Hi" } });
    expect(back.edges).toEqual([{ id: "e1", source: "start", sourceHandle: "next", target: "t" }]);
    expect(back.viewport).toEqual({ x: 1, y: 2, zoom: 1 });
    expect(parseFlow(back).ok).toBe(true);
  });

  it("refuses data that does not match the block's schema and prunes edges of removed outputs", () => {
    const node = newBlock("number", { x: 0, y: 0 }, "n");
    expect(withData(node, { message: 5 })).toBeNull();
    const withOptions = withData(node, { message: "Pick", options: [{ id: "a", title: "A" }, { id: "b", title: "B" }] });
    expect(withOptions?.type).toBe("number");
    const target = newBlock("text", { x: 0, y: 0 }, "t");
    const edges = [
      { id: "1", source: "n", sourceHandle: "option:a", target: "t" },
      { id: "2", source: "n", sourceHandle: "option:b", target: "t" },
    ];
    const fewer = withData(node, { message: "Pick", options: [{ id: "a", title: "A" }] });
    if (!fewer) throw new Error("should parse");
    expect(pruneEdges([fewer, target], edges).map((edge) => edge.id)).toEqual(["1"]);
  });
});

describe("copy and paste", () => {
  it("gives pasted blocks and their options new ids and re-points the edges between them", () => {
    const start: EditorNode = { ...newBlock("start", { x: 0, y: 0 }, "start"), selected: true };
    const list = withData(newBlock("list", { x: 10, y: 10 }, "l"), { message: "m", buttonText: "b", responses: [{ id: "r1", title: "One" }] });
    if (!list) throw new Error("should parse");
    const text: EditorNode = { ...newBlock("text", { x: 50, y: 50 }, "t"), selected: true };
    const outside = newBlock("text", { x: 90, y: 90 }, "o");
    const edges = [
      { id: "a", source: "l", sourceHandle: "option:r1", target: "t" },
      { id: "b", source: "t", sourceHandle: "next", target: "o" },
      { id: "c", source: "start", sourceHandle: "next", target: "l" },
    ];
    const copied = copySelection([start, { ...list, selected: true }, text, outside], edges);
    expect(copied.nodes.map((node) => node.id)).toEqual(["l", "t"]);
    expect(copied.edges.map((edge) => edge.id)).toEqual(["a"]);
    let counter = 0;
    const pasted = pasteContent(copied, { x: 40, y: 40 }, (prefix) => `${prefix}new${++counter}`);
    const [newList, newText] = pasted.nodes;
    expect(newList?.id).toBe("bnew1");
    expect(newList?.position).toEqual({ x: 50, y: 50 });
    expect(newList?.selected).toBe(true);
    const optionId = newList?.type === "list" ? newList.data.responses[0]?.id : undefined;
    expect(optionId).toBe("new2");
    expect(pasted.edges).toEqual([{ id: `e-bnew1-option_new2-${newText?.id}`, source: "bnew1", sourceHandle: "option:new2", target: newText?.id, targetHandle: null }]);
    expect(parseFlow(toDocument([start, list, text, outside, ...pasted.nodes], [...edges, ...pasted.edges])).ok).toBe(true);
  });
});

describe("test run driver", () => {
  const flow = {
    version: 1,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      { id: "hello", type: "text", position: { x: 0, y: 0 }, data: { message: "Hi {{first_name}}" } },
      { id: "ask", type: "link", position: { x: 0, y: 0 }, data: { mode: "buttons", message: "Sales or support?", buttons: [{ id: "s", title: "Sales" }, { id: "h", title: "Support" }] } },
      { id: "wait", type: "delay", position: { x: 0, y: 0 }, data: { seconds: 30, indicator: "typing" } },
      { id: "name", type: "receive", position: { x: 0, y: 0 }, data: { message: "Your email?", fieldKey: "email" } },
      { id: "tag", type: "action", position: { x: 0, y: 0 }, data: { actions: [{ kind: "add_tag", tag: "lead" }] } },
      { id: "api", type: "integration", position: { x: 0, y: 0 }, data: { url: "https://example.com/hook" } },
      { id: "bye", type: "text", position: { x: 0, y: 0 }, data: { message: "Bye" } },
    ],
    edges: [
      { id: "1", source: "start", sourceHandle: "next", target: "hello" },
      { id: "2", source: "hello", sourceHandle: "next", target: "ask" },
      { id: "3", source: "ask", sourceHandle: "option:s", target: "wait" },
      { id: "4", source: "wait", sourceHandle: "next", target: "name" },
      { id: "5", source: "name", sourceHandle: "answered", target: "tag" },
      { id: "6", source: "tag", sourceHandle: "next", target: "api" },
      { id: "7", source: "api", sourceHandle: "success", target: "bye" },
    ],
  };

  it("runs the draft with the engine: bubbles, a click, a fast-forwarded delay, a saved answer, a tag, a simulated request", () => {
    const started = startTestRun(flow, { now: 1000, contact: testContact("Ana Souza"), timezone: "UTC", fieldTypes: {} });
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    let session = started.session;
    const bots = () => session.transcript.flatMap((item) => (item.kind === "bot" && item.message.type === "text" ? [item.message.body] : item.kind === "bot" && item.message.type === "buttons" ? [item.message.body] : []));
    expect(bots()).toEqual(["Hi Ana", "Sales or support?"]);
    expect(currentBlock(session)).toBe("ask");
    const sent = session.transcript.find((item) => item.kind === "bot" && item.message.type === "buttons");
    const button = sent?.kind === "bot" && sent.message.type === "buttons" ? sent.message.buttons[0] : undefined;
    if (!button) throw new Error("buttons expected");
    session = replyTestRun(session, button.title, 2000, button.id);
    expect(currentBlock(session)).toBe("wait");
    expect(nextTimer(session)).not.toBeNull();
    session = fireNextTimer(session, 2000);
    session = fireNextTimer(session, 2000);
    expect(currentBlock(session)).toBe("name");
    expect(bots()).toContain("Your email?");
    session = replyTestRun(session, "ana@example.com", 40_000);
    expect(session.contact.email).toBe("ana@example.com");
    expect(session.contact.tags).toEqual(["lead"]);
    expect(session.http?.nodeId).toBe("api");
    session = answerHttp(session, true, 41_000);
    expect(bots()).toContain("Bye");
    expect(currentBlock(session)).toBeNull();
    expect(session.transcript.at(-1)).toMatchObject({ kind: "end", status: "done" });
    expect(session.visited).toEqual(["start", "hello", "ask", "wait", "name", "tag", "api", "bye"]);
  });

  it("refuses a draft that cannot run, with its problems", () => {
    const started = startTestRun({ version: 1, nodes: [], edges: [] }, { now: 0, contact: testContact("X"), timezone: "UTC" });
    expect(started.ok).toBe(false);
    expect(startTestRun(emptyFlow(), { now: 0, contact: testContact("X"), timezone: "UTC" }).ok).toBe(true);
  });
});
