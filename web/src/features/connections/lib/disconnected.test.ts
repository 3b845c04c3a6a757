import { describe, expect, it } from "vitest";
import { disconnectedState } from "./disconnected";

describe("the shell's connection warning (issue 9)", () => {
  it("says 'Not paired yet' while every entry is a connection never paired, 'Connection lost' once one was lost", () => {
    expect(disconnectedState([])).toBeNull();
    expect(disconnectedState([{ neverPaired: true }])).toBe("unpaired");
    expect(disconnectedState([{ neverPaired: true }, {}])).toBe("lost");
    expect(disconnectedState([{}])).toBe("lost");
  });
});
