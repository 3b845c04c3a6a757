import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { brandFor, contrastOf, foregroundFor, luminance, primaryColorVariables, primaryTextVariables, readableOn, readDocumentBranding, TEXT_SURFACES, type BrandingDocument } from "./branding";

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

/** A stand-in document answering `attributes[selector][name]`. */
function fakeDocument(attributes: Record<string, Record<string, string>>): BrandingDocument {
  return {
    querySelector: (selector) => {
      const found = attributes[selector];
      return found ? { getAttribute: (name) => found[name] ?? null } : null;
    },
  };
}

const SETTINGS = { appName: "Conversa", franchiseMode: true, primaryColor: "#15803d" };

describe("the primary colour's CSS variables (issue 14)", () => {
  it("gives the colour, lower-case and six digits, and the text colour that contrasts more", () => {
    expect(primaryColorVariables("#AA3300")).toEqual({ "--primary": "#aa3300", "--primary-foreground": "#ffffff" });
    expect(primaryColorVariables("#fc0")).toEqual({ "--primary": "#ffcc00", "--primary-foreground": "#111827" });
  });

  it("gives nothing for a value that is not a colour", () => {
    for (const bad of [null, undefined, "", "red", "#12345", "#ggg", "javascript:alert(1)"]) expect(primaryColorVariables(bad), String(bad)).toBeNull();
  });
});

describe("the branding the worker wrote into the document (issue 14: no flash of the product's brand)", () => {
  it("reads name, colour, favicon and logo of a franchise host's HTML", () => {
    const doc = fakeDocument({
      'meta[property="og:site_name"]': { content: "Acme Franquias" },
      'meta[name="theme-color"]': { content: "#aa3300" },
      "link#app-favicon": { href: "/api/files/images/fav.png" },
      'meta[property="og:image"]': { content: "/api/files/images/logo.png" },
    });
    expect(readDocumentBranding(doc)).toEqual({ name: "Acme Franquias", primaryColor: "#aa3300", favicon: "/api/files/images/fav.png", logo: "/api/files/images/logo.png" });
  });

  it("is null on the product's own HTML (no site name, no theme colour), and ignores the product's favicon", () => {
    expect(readDocumentBranding(fakeDocument({ "link#app-favicon": { href: "/favicon.svg" } }))).toBeNull();
    expect(readDocumentBranding(fakeDocument({ 'meta[name="theme-color"]': { content: "#aa3300" }, "link#app-favicon": { href: "/favicon.svg" } }))?.favicon).toBeNull();
  });

  it("drops a theme colour that is not a colour", () => {
    expect(readDocumentBranding(fakeDocument({ 'meta[property="og:site_name"]': { content: "Acme" }, 'meta[name="theme-color"]': { content: "url(x)" } }))?.primaryColor).toBeNull();
  });
});

describe("the brand the shell shows (issue 14)", () => {
  const boot = { name: "Acme Franquias", primaryColor: "#aa3300", favicon: null, logo: null };

  it("shows the document's franchise name while nothing has loaded, never the product's", () => {
    expect(brandFor(undefined, undefined, boot)).toEqual({ name: "Acme Franquias", logo: null });
    expect(brandFor(SETTINGS, undefined, boot)).toEqual({ name: "Acme Franquias", logo: null });
  });

  it("shows the franchise info once it answers", () => {
    expect(brandFor(SETTINGS, { name: "Acme 2", logo: "/logo.png", favicon: null, primaryColor: null }, boot)).toEqual({ name: "Acme 2", logo: "/logo.png" });
  });

  it("shows the product's name on the product's own host, and a blank before the settings load", () => {
    expect(brandFor(undefined, undefined, null)).toEqual({ name: null, logo: null });
    expect(brandFor({ ...SETTINGS, franchiseMode: false }, undefined, null)).toEqual({ name: "Conversa", logo: null });
    expect(brandFor(SETTINGS, { name: "Conversa", logo: null, favicon: null, primaryColor: "#15803d" }, null)).toEqual({ name: "Conversa", logo: null });
  });
});

/** Brand colours a franchise may choose: the product's green, dark, light, saturated, black and white. */
const BRANDS = ["#15803d", "#16a34a", "#1e3a8a", "#000000", "#111827", "#7c3aed", "#aa3300", "#db2777", "#0ea5e9", "#facc15", "#ffffff", "#fc0"];

describe("primary-coloured text reads on both themes, whatever the brand colour (issue 9, WCAG 1.4.3)", () => {
  it("reaches 4.5:1 on each theme's lowest-contrast surface and on its page background", () => {
    for (const brand of BRANDS) {
      const text = primaryTextVariables(brand)!;
      expect(contrastOf(text["--primary-on-light"], TEXT_SURFACES.light), `${brand} on light`).toBeGreaterThanOrEqual(4.5);
      expect(contrastOf(text["--primary-on-light"], "#ffffff"), `${brand} on white`).toBeGreaterThanOrEqual(4.5);
      expect(contrastOf(text["--primary-on-dark"], TEXT_SURFACES.dark), `${brand} on dark`).toBeGreaterThanOrEqual(4.5);
      // The dark theme's page background (index.css .dark --background, oklch(0.17 0.01 260)).
      expect(contrastOf(text["--primary-on-dark"], "#0d1014"), `${brand} on the dark background`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("lightens a dark brand colour on the dark theme and keeps its hue; keeps a colour that already reads", () => {
    // The product's green is 3.8:1 on the dark background: the links of the login page failed axe.
    expect(contrastOf("#15803d", "#0d1014")!).toBeLessThan(4.5);
    const green = primaryTextVariables("#15803d")!["--primary-on-dark"];
    expect(luminance(green)!).toBeGreaterThan(luminance("#15803d")!);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(green.slice(i, i + 2), 16)) as [number, number, number];
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    // Navy and black become lighter tints; a light yellow is kept on dark and darkened on light.
    expect(luminance(primaryTextVariables("#1e3a8a")!["--primary-on-dark"])!).toBeGreaterThan(luminance("#1e3a8a")!);
    expect(primaryTextVariables("#000000")!["--primary-on-dark"]).not.toBe("#000000");
    expect(primaryTextVariables("#facc15")).toEqual({ "--primary-on-light": readableOn("#facc15", TEXT_SURFACES.light), "--primary-on-dark": "#facc15" });
    expect(luminance(primaryTextVariables("#facc15")!["--primary-on-light"])!).toBeLessThan(luminance("#facc15")!);
    expect(primaryTextVariables("#1e3a8a")!["--primary-on-light"]).toBe("#1e3a8a");
  });

  it("changes the colour no more than needed (just over 4.5:1 when it had to change)", () => {
    for (const brand of ["#15803d", "#1e3a8a", "#000000", "#aa3300"]) {
      const dark = primaryTextVariables(brand)!["--primary-on-dark"];
      expect(contrastOf(dark, TEXT_SURFACES.dark)!, brand).toBeLessThan(4.7);
    }
  });

  it("gives nothing for a value that is not a colour", () => {
    for (const bad of [null, undefined, "", "red", "#12345", "javascript:alert(1)"]) expect(primaryTextVariables(bad), String(bad)).toBeNull();
    expect(readableOn("#15803d", "black")).toBeNull();
  });

  it("index.css starts with the text colours of its default primary, and text-primary paints --primary-text", () => {
    const css = readFileSync(new URL("../index.css", import.meta.url), "utf8");
    const primary = /--primary:\s*(#[0-9a-f]{6});/.exec(css)?.[1];
    const text = primaryTextVariables(primary)!;
    expect(css).toContain(`--primary-on-light: ${text["--primary-on-light"]};`);
    expect(css).toContain(`--primary-on-dark: ${text["--primary-on-dark"]};`);
    expect(css).toMatch(/:root \{[^}]*--primary-text: var\(--primary-on-light\);/);
    expect(css).toMatch(/\.dark \{[^}]*--primary-text: var\(--primary-on-dark\);/);
    expect(css).toContain("--text-color-primary: var(--primary-text);");
  });
});
