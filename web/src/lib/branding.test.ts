import { describe, expect, it } from "vitest";
import { foregroundFor, luminance } from "./branding";

/** WCAG 2 contrast of two hex colours. */
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a)!, luminance(b)!].sort((m, n) => n - m) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

describe("the primary colour's text colour", () => {
  it("reaches WCAG AA (4.5:1) on the default primary colour", () => {
    const primary = "#15803d";
    const text = foregroundFor(luminance(primary)!);
    expect(text).toBe("#ffffff");
    expect(contrast(primary, text)).toBeGreaterThanOrEqual(4.5);
  });

  it("picks the text colour that contrasts more, whatever the brand colour", () => {
    // #16a34a under white text is 3.3:1 (the old rule picked white); dark text reads better.
    for (const brand of ["#16a34a", "#facc15", "#1e3a8a", "#db2777", "#0ea5e9", "#000000", "#ffffff"]) {
      const chosen = foregroundFor(luminance(brand)!);
      const other = chosen === "#ffffff" ? "#111827" : "#ffffff";
      expect(contrast(brand, chosen), brand).toBeGreaterThanOrEqual(contrast(brand, other));
    }
    expect(foregroundFor(luminance("#16a34a")!)).toBe("#111827");
  });
});
