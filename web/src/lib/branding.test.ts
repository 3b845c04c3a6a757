import { describe, expect, it } from "vitest";
import { brandFor, foregroundFor, luminance, primaryColorVariables, readDocumentBranding, type BrandingDocument } from "./branding";

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
