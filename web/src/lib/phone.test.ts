import { describe, expect, it } from "vitest";
import { formatPhone } from "./phone";

describe("formatPhone", () => {
  it("shows E.164 numbers in the international format and leaves the rest as stored", () => {
    expect(formatPhone("+5511988880015")).toBe("+55 11 98888 0015");
    expect(formatPhone("+351912345678")).toBe("+351 912 345 678");
    expect(formatPhone("not a phone")).toBe("not a phone");
    expect(formatPhone(null)).toBe("");
  });
});
