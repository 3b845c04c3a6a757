/**
 * The franchise host's first byte (issue 14) carries the brand colour as text for each theme (issue
 * 9), the same values the app applies once it runs, so primary-coloured links never flash in the
 * product's colour nor read under 4.5:1 on the dark theme.
 */
import { describe, expect, it } from "vitest";
import { contrastOf, primaryTextVariables, TEXT_SURFACES } from "../../schema/brand-colors";
import { brandStyle } from "./branding";

describe("brandStyle", () => {
  it("sets the brand's text colour on the light and the dark theme, each reading at 4.5:1", () => {
    const style = brandStyle("#1e3a8a");
    const text = primaryTextVariables("#1e3a8a")!;
    expect(style).toBe(`:root,.dark{--primary:#1e3a8a;--primary-foreground:#ffffff;--primary-on-light:#1e3a8a;--primary-on-dark:${text["--primary-on-dark"]};}`);
    expect(contrastOf(text["--primary-on-dark"], TEXT_SURFACES.dark)!).toBeGreaterThanOrEqual(4.5);
  });

  it("writes nothing for a value that is not #rrggbb", () => {
    expect(brandStyle("red;}body{display:none")).toBe("");
  });
});
