/** The flow document (schema/flows): the registry, migrations (STYLE.md habit 9) and validation naming the block. */
import { describe, expect, it } from "vitest";
import {
  BLOCK_CATEGORIES,
  BLOCK_TYPES,
  BLOCKS,
  blockOutputs,
  blockTypesOf,
  emptyFlow,
  FLOW_VERSION,
  isPublishable,
  migrateFlow,
  parseFlow,
  validateFlow,
} from "../../schema/flows";
import { doc } from "./test-helpers";

describe("block registry", () => {
  it("has the spec's 22 block types in its five categories", () => {
    expect(BLOCK_TYPES).toHaveLength(22);
    expect(Object.fromEntries(BLOCK_CATEGORIES.map((category) => [category, blockTypesOf(category)]))).toEqual({
      content: ["audio", "contact", "file", "image", "ptv", "text", "video"],
      buttons: ["link", "list", "number"],
      actions: ["start", "action", "condition", "delay", "notification", "random", "receive", "rotary", "save", "flow_connection"],
      integrations: ["integration"],
      pixels: ["facebook_pixel"],
    });
  });

  it.each(BLOCK_TYPES)("%s: its defaults pass its schema", (type) => {
    const spec = BLOCKS[type];
    expect(spec.type).toBe(type);
    expect(spec.schema.safeParse(spec.defaults()).success).toBe(true);
  });

  it("derives outputs from the data", () => {
    const list = BLOCKS.list.schema.parse({ responses: [{ id: "a", title: "A" }, { id: "b", title: "B" }] });
    expect(blockOutputs({ type: "list", data: list }).map((o) => o.id)).toEqual(["option:a", "option:b", "invalid", "no_answer"]);
    expect(blockOutputs({ type: "receive", data: BLOCKS.receive.defaults() }).map((o) => o.id)).toEqual(["answered", "invalid", "no_answer"]);
    expect(blockOutputs({ type: "condition", data: BLOCKS.condition.defaults() }).map((o) => o.id)).toEqual(["true", "false"]);
    expect(blockOutputs({ type: "integration", data: BLOCKS.integration.defaults() }).map((o) => o.id)).toEqual(["success", "failure"]);
    expect(blockOutputs({ type: "random", data: BLOCKS.random.defaults() }).map((o) => o.id)).toEqual(["option:a", "option:b"]);
    expect(blockOutputs({ type: "link", data: BLOCKS.link.defaults() }).map((o) => o.id)).toEqual(["next"]);
    expect(blockOutputs({ type: "link", data: BLOCKS.link.schema.parse({ mode: "buttons", buttons: [{ id: "y", title: "Yes" }] }) }).map((o) => o.id)).toEqual(["option:y", "invalid", "no_answer"]);
    expect(blockOutputs({ type: "flow_connection", data: BLOCKS.flow_connection.defaults() })).toEqual([]);
    expect(blockOutputs({ type: "text", data: BLOCKS.text.defaults() }).map((o) => o.id)).toEqual(["next"]);
  });

  it("a new builder is valid and has its start block", () => {
    expect(parseFlow(emptyFlow())).toMatchObject({ ok: true, problems: [] });
  });
});

describe("migrateFlow", () => {
  // What @xyflow/react's toObject() gave before documents were versioned.
  const legacy = {
    nodes: [
      { id: "s", type: "start", position: { x: 0, y: 0 }, data: {}, selected: true, measured: { width: 200, height: 80 } },
      { id: "t", type: "text", position: { x: 0, y: 100 }, data: { message: "Hi" }, dragging: false },
      { id: "fc", type: "flow connection", position: { x: 0, y: 200 }, data: { flowId: "f2" } },
    ],
    edges: [
      { id: "e1", source: "s", sourceHandle: null, target: "t", targetHandle: null, selected: false },
      { id: "e2", source: "t", target: "fc" },
    ],
    viewport: { x: 10, y: 20, zoom: 1.5 },
  };

  it("brings an unversioned document to the current version", () => {
    const migrated = migrateFlow(legacy);
    expect(migrated.ok).toBe(true);
    if (!migrated.ok) return;
    expect(migrated.from).toBe(0);
    expect(migrated.doc).toEqual({
      version: FLOW_VERSION,
      nodes: [
        { id: "s", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "t", type: "text", position: { x: 0, y: 100 }, data: { message: "Hi" } },
        { id: "fc", type: "flow_connection", position: { x: 0, y: 200 }, data: { flowId: "f2" } },
      ],
      edges: [
        { id: "e1", source: "s", sourceHandle: "next", target: "t", targetHandle: null },
        { id: "e2", source: "t", sourceHandle: "next", target: "fc" },
      ],
      viewport: { x: 10, y: 20, zoom: 1.5 },
    });
    const parsed = parseFlow(legacy);
    expect(parsed.ok && isPublishable(parsed.problems)).toBe(true);
  });

  it("leaves a current document as it is", () => {
    const current = doc([{ id: "s", type: "start" }], []);
    expect(migrateFlow(current)).toEqual({ ok: true, doc: current, from: 1 });
  });

  it("refuses a newer version and a non-document", () => {
    expect(migrateFlow({ version: FLOW_VERSION + 1, nodes: [], edges: [] })).toMatchObject({ ok: false, code: "unsupported_version" });
    expect(migrateFlow([])).toMatchObject({ ok: false, code: "invalid_document" });
    expect(migrateFlow({ version: "1" })).toMatchObject({ ok: false, code: "invalid_document" });
  });
});

describe("validateFlow", () => {
  it("names the block of an unknown type", () => {
    const problems = validateFlow(doc([{ id: "s", type: "start" }, { id: "weird", type: "teleport" }], []));
    expect(problems).toEqual([expect.objectContaining({ severity: "error", code: "unknown_block_type", nodeId: "weird", detail: "teleport" })]);
    expect(problems[0]?.message).toContain('"weird"');
  });

  it("names the block and the path of data that does not match its type", () => {
    const problems = validateFlow(
      doc(
        [
          { id: "s", type: "start" },
          { id: "d1", type: "delay", data: { seconds: -5, indicator: "dancing" } },
          { id: "l1", type: "list", data: { responses: [{ id: "a" }, { id: "a" }] } },
        ],
        [],
      ),
    );
    expect(problems.filter((p) => p.code === "invalid_block_data").map((p) => [p.nodeId, p.path])).toEqual([
      ["d1", "seconds"],
      ["d1", "indicator"],
      ["l1", "responses.1.id"],
    ]);
    expect(problems.find((p) => p.nodeId === "d1")?.message).toContain('delay block "d1"');
  });

  it("refuses edges from or to blocks that do not exist", () => {
    const problems = validateFlow(doc([{ id: "s", type: "start" }], [["s", "next", "ghost"], ["nobody", "next", "s"]]));
    expect(problems.map((p) => [p.code, p.edgeId])).toEqual([
      ["unknown_edge_target", "e0"],
      ["unknown_edge_source", "e1"],
    ]);
  });

  it("marks an edge from an output the block does not have, a doubled output and an edge into start", () => {
    const problems = validateFlow(
      doc(
        [{ id: "s", type: "start" }, { id: "c", type: "condition" }, { id: "a", type: "text", data: { message: "a" } }, { id: "b", type: "text", data: { message: "b" } }],
        [["s", "next", "c"], ["c", "maybe", "a"], ["c", "true", "a"], ["c", "true", "b"], ["a", "next", "s"]],
      ),
    );
    expect(problems.filter((p) => p.severity === "incomplete").map((p) => [p.code, p.nodeId, p.edgeId])).toEqual([
      ["unknown_handle", "c", "e1"],
      ["duplicate_output_edge", "c", "e3"],
      ["edge_into_start", "s", "e4"],
    ]);
  });

  it("reports a missing start, incomplete blocks, unconnected required outputs and unreachable blocks", () => {
    const noStart = validateFlow(doc([{ id: "t", type: "text", data: { message: "hi" } }], []));
    expect(noStart).toContainEqual(expect.objectContaining({ severity: "incomplete", code: "missing_start" }));

    const problems = validateFlow(
      doc(
        [
          { id: "s", type: "start" },
          { id: "n", type: "number", data: { message: "", options: [{ id: "x", title: "X" }, { id: "y", title: "" }] } },
          { id: "x", type: "text", data: { message: "x" } },
          { id: "lost", type: "image" },
        ],
        [["s", "next", "n"], ["n", "option:x", "x"]],
      ),
    );
    expect(problems.map((p) => [p.severity, p.code, p.nodeId, p.path ?? p.detail])).toEqual([
      ["incomplete", "incomplete_block", "n", "message"],
      ["incomplete", "incomplete_block", "n", "options.1.title"],
      ["incomplete", "incomplete_block", "lost", "media.url"],
      ["warning", "unconnected_output", "n", "option:y"],
      ["warning", "unreachable_block", "lost", undefined],
    ]);
    expect(isPublishable(problems)).toBe(false);
    expect(parseFlow(doc([{ id: "s", type: "start" }, { id: "lost", type: "image" }], [])).ok).toBe(true);
  });

  it("accepts an uploaded file's r2: reference or an http(s) URL as media, nothing else", () => {
    const media = (url: string) => validateFlow(doc([{ id: "s", type: "start" }, { id: "i", type: "image", data: { media: { url, mime: "image/png" } } }], [["s", "next", "i"]]));
    expect(media("r2:media/0b0e/1f2a.png")).toEqual([]);
    expect(media("https://cdn.example.com/a.png")).toEqual([]);
    expect(media("javascript:alert(1)")).toEqual([expect.objectContaining({ nodeId: "i", detail: "invalid_url" })]);
  });

  it("checks a save block's formula", () => {
    const problems = validateFlow(doc([{ id: "s", type: "start" }, { id: "sv", type: "save", data: { fieldKey: "total", mode: "formula", value: "{{price}} * (2" } }], [["s", "next", "sv"]]));
    expect(problems).toEqual([expect.objectContaining({ code: "incomplete_block", nodeId: "sv", detail: "invalid_formula" })]);
  });

  it("refuses a malformed document with the place named", () => {
    expect(validateFlow({ version: 1, nodes: [{ id: "a", type: "text" }], edges: [] })).toEqual([expect.objectContaining({ severity: "error", code: "invalid_document", path: "nodes.0.position" })]);
  });
});
