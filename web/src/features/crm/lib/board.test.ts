import { describe, expect, it } from "vitest";
import type { CrmBoardColumn, CrmCardAnswer } from "../../../../../schema/api-types";
import {
  appendPage,
  applyCardEvent,
  applyColumns,
  applyMove,
  moveColumn,
  orderColumns,
  parseDragId,
  placementFromOrder,
  planMove,
  reorderIds,
  shiftCardDuringDrag,
  type Board,
} from "./board";

function card(id: string, columnId: string, position: number, over: Partial<CrmCardAnswer> = {}): CrmCardAnswer {
  return { id, name: `Contact ${id}`, phone: null, email: null, image: null, tags: [], columnId, position, ...over };
}

function column(id: string, cards: CrmCardAnswer[], over: Partial<CrmBoardColumn> = {}): CrmBoardColumn {
  return { id, name: `Column ${id}`, color: "#64748b", position: 1, contacts: cards, cursor: null, total: cards.length, ...over };
}

/** Columns a (cards a1 a2 a3) and b (card b1). */
function board(): Board {
  return {
    columns: [column("a", [card("a1", "a", 1), card("a2", "a", 2), card("a3", "a", 3)]), column("b", [card("b1", "b", 1)], { position: 2 })],
  };
}

const ids = (b: Board, columnId: string) => b.columns.find((c) => c.id === columnId)?.contacts.map((c) => c.id);
const totals = (b: Board) => Object.fromEntries(b.columns.map((c) => [c.id, c.total]));

describe("crm.card events", () => {
  it("a card moving to another column leaves the first and joins the second in position order", () => {
    const next = applyCardEvent(board(), { contactId: "a2", fromColumnId: "a", card: card("a2", "b", 0.5) });
    expect(ids(next, "a")).toEqual(["a1", "a3"]);
    expect(ids(next, "b")).toEqual(["a2", "b1"]);
    expect(totals(next)).toEqual({ a: 2, b: 2 });
  });

  it("a card leaving the board (null) is removed and counted out", () => {
    const next = applyCardEvent(board(), { contactId: "a1", fromColumnId: "a", card: null });
    expect(ids(next, "a")).toEqual(["a2", "a3"]);
    expect(totals(next).a).toBe(2);
  });

  it("a card not loaded that leaves a column lowers that column's count", () => {
    const start: Board = { columns: [column("a", [card("a1", "a", 1)], { cursor: "next", total: 40 })] };
    const next = applyCardEvent(start, { contactId: "zz", fromColumnId: "a", card: null });
    expect(totals(next).a).toBe(39);
  });

  it("a card sorting after the loaded part of a partly loaded column is only counted", () => {
    const start: Board = { columns: [column("a", [card("a1", "a", 1)], { cursor: "next", total: 40 })] };
    const next = applyCardEvent(start, { contactId: "new", fromColumnId: null, card: card("new", "a", 99) });
    expect(ids(next, "a")).toEqual(["a1"]);
    expect(totals(next).a).toBe(41);
  });

  it("the echo of a move already shown changes nothing but the position", () => {
    const moved = applyMove(board(), card("a1", "a", 1), { columnId: "b", afterId: "b1" });
    const echoed = applyCardEvent(moved, { contactId: "a1", fromColumnId: "a", card: card("a1", "b", 2) });
    expect(ids(echoed, "b")).toEqual(["b1", "a1"]);
    expect(totals(echoed)).toEqual({ a: 2, b: 2 });
    expect(echoed.columns[1]?.contacts[1]?.position).toBe(2);
  });

  it("never mutates the board it is given", () => {
    const start = board();
    const copy = structuredClone(start);
    applyCardEvent(start, { contactId: "a2", fromColumnId: "a", card: card("a2", "b", 0) });
    expect(start).toEqual(copy);
  });
});

describe("crm.columns events", () => {
  it("keeps loaded cards, renames, reorders, adds empty columns and drops deleted ones", () => {
    const next = applyColumns(board(), [
      { id: "c", name: "New", color: "#ef4444", position: 1 },
      { id: "a", name: "Renamed", color: "#22c55e", position: 2 },
    ]);
    expect(next.columns.map((c) => c.id)).toEqual(["c", "a"]);
    expect(next.columns[0]).toMatchObject({ name: "New", contacts: [], cursor: null, total: 0 });
    expect(next.columns[1]).toMatchObject({ name: "Renamed", color: "#22c55e", total: 3 });
    expect(ids(next, "a")).toEqual(["a1", "a2", "a3"]);
  });
});

describe("optimistic moves", () => {
  it("puts the card before its neighbour with a position between its neighbours'", () => {
    const next = applyMove(board(), card("a3", "a", 3), { columnId: "a", beforeId: "a2" });
    expect(ids(next, "a")).toEqual(["a1", "a3", "a2"]);
    expect(next.columns[0]?.contacts[1]?.position).toBe(1.5);
    expect(totals(next).a).toBe(3);
  });

  it("puts the card at the end of an empty or fully loaded column", () => {
    const next = applyMove(board(), card("a1", "a", 1), { columnId: "b" });
    expect(ids(next, "b")).toEqual(["b1", "a1"]);
    expect(totals(next)).toEqual({ a: 2, b: 2 });
  });

  it("rolls back to where the card was, keeping live changes that arrived meanwhile", () => {
    const start = board();
    const plan = planMove(start, card("a1", "a", 1), { columnId: "b", beforeId: "b1" });
    expect(ids(plan.next, "b")).toEqual(["a1", "b1"]);
    // Meanwhile another member moved a3 to b.
    const live = applyCardEvent(plan.next, { contactId: "a3", fromColumnId: "a", card: card("a3", "b", 5) });
    const back = plan.rollback(live);
    expect(ids(back, "a")).toEqual(["a1", "a2"]);
    expect(ids(back, "b")).toEqual(["b1", "a3"]);
    expect(totals(back)).toEqual({ a: 2, b: 2 });
  });

  it("rolls back a contact newly put on the board by taking it off again", () => {
    const plan = planMove(board(), card("new", "b", 0), { columnId: "b" });
    expect(ids(plan.next, "b")).toEqual(["b1", "new"]);
    const back = plan.rollback(plan.next);
    expect(ids(back, "b")).toEqual(["b1"]);
    expect(totals(back).b).toBe(1);
  });

  it("counts a contact moved from a column where it was not loaded", () => {
    const start: Board = { columns: [column("a", [], { cursor: "x", total: 10 }), column("b", [])] };
    const next = applyMove(start, card("far", "b", 0), { columnId: "b" }, "a");
    expect(totals(next)).toEqual({ a: 9, b: 1 });
  });
});

describe("drop position → beforeId / afterId", () => {
  it("goes before the card that follows it", () => {
    expect(placementFromOrder("a", ["a1", "x", "a2"], "x")).toEqual({ columnId: "a", beforeId: "a2" });
  });
  it("goes after the last card when dropped at the end", () => {
    expect(placementFromOrder("a", ["a1", "a2", "x"], "x")).toEqual({ columnId: "a", afterId: "a2" });
  });
  it("has no neighbour on an empty column", () => {
    expect(placementFromOrder("a", ["x"], "x")).toEqual({ columnId: "a" });
  });
  it("reorders within a column like dnd-kit's arrayMove", () => {
    expect(reorderIds(["a1", "a2", "a3"], "a1", "a3")).toEqual(["a2", "a3", "a1"]);
    expect(reorderIds(["a1", "a2", "a3"], "a3", "a1")).toEqual(["a3", "a1", "a2"]);
    expect(placementFromOrder("a", reorderIds(["a1", "a2", "a3"], "a1", "a2"), "a1")).toEqual({ columnId: "a", beforeId: "a3" });
  });
  it("while dragging over another column the card shows before or after the card under it", () => {
    const above = shiftCardDuringDrag(board(), "a1", { kind: "card", id: "b1" }, false);
    expect(ids(above, "b")).toEqual(["a1", "b1"]);
    const below = shiftCardDuringDrag(board(), "a1", { kind: "card", id: "b1" }, true);
    expect(ids(below, "b")).toEqual(["b1", "a1"]);
    const onColumn = shiftCardDuringDrag(board(), "b1", { kind: "column", id: "a" }, false);
    expect(ids(onColumn, "a")).toEqual(["a1", "a2", "a3", "b1"]);
    expect(shiftCardDuringDrag(board(), "a1", { kind: "card", id: "a3" }, true)).toEqual(board());
  });
});

describe("columns and drag ids", () => {
  it("moves a column and puts columns back in a given order", () => {
    const moved = moveColumn(board(), "b", "a");
    expect(moved.columns.map((c) => c.id)).toEqual(["b", "a"]);
    expect(orderColumns(moved, ["a", "b"]).columns.map((c) => c.id)).toEqual(["a", "b"]);
  });
  it("appends a page without showing a card twice", () => {
    const start: Board = { columns: [column("a", [card("a1", "a", 1)], { cursor: "c1", total: 3 })] };
    const next = appendPage(start, "a", { results: [card("a1", "a", 1), card("a2", "a", 2)], cursor: null, total: 3 });
    expect(ids(next, "a")).toEqual(["a1", "a2"]);
    expect(next.columns[0]?.cursor).toBeNull();
  });
  it("reads drag ids", () => {
    expect(parseDragId("card:abc")).toEqual({ kind: "card", id: "abc" });
    expect(parseDragId("column:x:y")).toEqual({ kind: "column", id: "x:y" });
    expect(parseDragId("other:1")).toBeNull();
    expect(parseDragId(7)).toBeNull();
    expect(parseDragId("card:")).toBeNull();
  });
});
