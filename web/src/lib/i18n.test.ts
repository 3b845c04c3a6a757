import { describe, expect, it } from "vitest";
import { DEFAULT_LOCALE, LOCALE_COOKIE_MAX_AGE, localeCookie, readLocaleCookie } from "./i18n";

describe("locale cookie (spec §9)", () => {
  it("is kept 365 days", () => {
    expect(LOCALE_COOKIE_MAX_AGE).toBe(365 * 24 * 60 * 60);
    expect(localeCookie("es-ES")).toBe("locale=es-ES; Max-Age=31536000; Path=/; SameSite=Lax");
  });

  it("reads a known locale and ignores anything else", () => {
    expect(readLocaleCookie("a=1; locale=pt-PT; b=2")).toBe("pt-PT");
    expect(readLocaleCookie("locale=fr-FR")).toBeNull();
    expect(readLocaleCookie("")).toBeNull();
  });

  it("defaults to pt-BR", () => {
    expect(DEFAULT_LOCALE).toBe("pt-BR");
  });
});
