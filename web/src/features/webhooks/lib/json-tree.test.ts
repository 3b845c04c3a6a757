import { describe, expect, it } from "vitest";
import { textAtPath } from "../../../../../schema/validation/webhooks";
import { jsonTree, type JsonNode } from "./json-tree";

function leaves(nodes: JsonNode[]): { path: string; text: string }[] {
  return nodes.flatMap((n) => (n.kind === "leaf" ? [{ path: n.path, text: n.text }] : leaves(n.children)));
}

describe("jsonTree", () => {
  it("gives every leaf the path the worker reads it by", () => {
    const body = { data: { customer: { phones: [{ number: "+55 11 91234-5678" }] }, "first.name": "Ana" }, "customer[phone]": "11", ok: true };
    const found = leaves(jsonTree(body));
    expect(found).toEqual([
      { path: "data.customer.phones[0].number", text: "+55 11 91234-5678" },
      { path: 'data["first.name"]', text: "Ana" },
      { path: '["customer[phone]"]', text: "11" },
      { path: "ok", text: "true" },
    ]);
    for (const leaf of found) expect(textAtPath(body, leaf.path)).toBe(leaf.text);
  });
});
