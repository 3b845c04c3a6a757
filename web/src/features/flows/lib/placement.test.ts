/** Issue 9: a block added after the selected one lands in free space next to it, never on others. */
import { describe, expect, it } from "vitest";
import { BLOCK_MARGIN, DEFAULT_BLOCK_SIZE, NEXT_BLOCK_GAP_X, placeAfter, type PlacedBlock } from "./placement";

const block = (id: string, x: number, y: number, height = 140): PlacedBlock => ({ id, position: { x, y }, measured: { width: 256, height } });

function intersects(at: { x: number; y: number }, other: PlacedBlock): boolean {
  const w = other.measured?.width ?? DEFAULT_BLOCK_SIZE.width;
  const h = other.measured?.height ?? DEFAULT_BLOCK_SIZE.height;
  return at.x < other.position.x + w && other.position.x < at.x + DEFAULT_BLOCK_SIZE.width && at.y < other.position.y + h && other.position.y < at.y + DEFAULT_BLOCK_SIZE.height;
}

describe("placeAfter", () => {
  it("puts the block to the right of the source, level with it, when that spot is free", () => {
    const source = block("a", 100, 200);
    expect(placeAfter(source, [source])).toEqual({ x: 100 + NEXT_BLOCK_GAP_X, y: 200 });
  });

  it("never lands on a block already to the right (the second child goes below the first)", () => {
    const source = block("a", 0, 0);
    const first = block("b", NEXT_BLOCK_GAP_X, 0, 180);
    const at = placeAfter(source, [source, first]);
    expect(at.x).toBe(NEXT_BLOCK_GAP_X);
    expect(intersects(at, first)).toBe(false);
    expect(at.y >= 180 + BLOCK_MARGIN || at.y + DEFAULT_BLOCK_SIZE.height + BLOCK_MARGIN <= 0).toBe(true);
  });

  it("finds free space among many blocks, with unmeasured blocks taken at the default size", () => {
    const source = block("a", 0, 300);
    const column = [0, 220, 440, 660].map((y, index) => ({ id: `c${index}`, position: { x: NEXT_BLOCK_GAP_X + 40, y } }));
    const all = [source, ...column];
    const at = placeAfter(source, all);
    for (const other of column) expect(intersects(at, other)).toBe(false);
    // Nearest free row: between the blocks if there is room, otherwise above or below them all.
    expect(Math.abs(at.y - 300)).toBeLessThanOrEqual(660 + 140 + BLOCK_MARGIN);
  });

  it("adding three blocks in a row after the same source stacks them without overlaps", () => {
    const source = block("a", 0, 0);
    const blocks: PlacedBlock[] = [source];
    for (let i = 0; i < 3; i++) blocks.push({ id: `n${i}`, position: placeAfter(source, blocks) });
    const added = blocks.slice(1);
    for (const a of added) for (const b of added) if (a !== b) expect(intersects(a.position, b)).toBe(false);
  });
});

describe("the editor's 'add after the selected block'", () => {
  it("places a block added after a source that already has one next to it in free space", async () => {
    const { parseFlow } = await import("../../../../../schema/flows");
    const { createEditorStore } = await import("../store/editor-store");
    const parsed = parseFlow({
      version: 1,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "t", type: "text", position: { x: NEXT_BLOCK_GAP_X, y: 0 }, data: { message: "Hi" } },
      ],
      edges: [],
    });
    if (!parsed.ok) throw new Error("bad fixture");
    const store = createEditorStore({ flowId: "f", doc: parsed.flow });
    const id = store.getState().addBlock("text", { x: 0, y: 0 }, "start");
    const nodes = store.getState().nodes;
    const added = nodes.find((node) => node.id === id);
    if (!added) throw new Error("not added");
    for (const other of nodes) if (other.id !== id) expect(intersects(added.position, other)).toBe(false);
  });
});
