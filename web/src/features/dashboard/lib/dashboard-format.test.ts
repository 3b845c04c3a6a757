import { describe, expect, it } from "vitest";
import { linkParts } from "../../../../../schema/validation/announcements";
import { formatDuration, isoDate, lastDays, toMinutes } from "./dashboard-format";

describe("dashboard formatting", () => {
  it("writes durations short, in the app's language, and — without a sample", () => {
    expect(formatDuration(null, "en-US")).toBe("—");
    expect(formatDuration(45_000, "en-US")).toBe("45s");
    expect(formatDuration(4 * 60_000, "en-US")).toBe("4m");
    expect(formatDuration(90 * 60_000, "en-US")).toBe("1h 30m");
    expect(formatDuration(51 * 3_600_000, "en-US")).toBe("2d 3h");
    expect(toMinutes(90_000)).toBe(1.5);
    expect(toMinutes(null)).toBeNull();
  });

  it("counts the last N days with today included", () => {
    expect(lastDays(new Date(2026, 2, 10), 10)).toEqual({ from: "2026-03-01", to: "2026-03-10" });
    expect(isoDate(new Date(2026, 0, 5))).toBe("2026-01-05");
  });
});

describe("announcement bodies", () => {
  it("turns http(s) addresses into links and keeps everything else as text (no HTML)", () => {
    expect(linkParts("Veja https://example.com/a?b=1. <b>oi</b> javascript:alert(1)")).toEqual([
      { kind: "text", value: "Veja " },
      { kind: "link", value: "https://example.com/a?b=1" },
      { kind: "text", value: ". <b>oi</b> javascript:alert(1)" },
    ]);
    expect(linkParts("sem link")).toEqual([{ kind: "text", value: "sem link" }]);
  });
});
