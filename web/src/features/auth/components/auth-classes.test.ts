import { createElement as h, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { twMerge } from "tailwind-merge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthLayout } from "@/app/layouts/auth-layout";
import { activateLocale } from "@/lib/i18n";
import { setClassMerge } from "@/lib/utils";
import { AuthCard } from "./auth-card";
import { LoginPage } from "./login-page";
import { RegisterPage } from "./register-page";

/** The page at `path` inside the auth layout, as HTML. */
function render(path: string, Page: ComponentType): string {
  return renderToStaticMarkup(
    h(I18nProvider, { i18n }, h(MemoryRouter, { initialEntries: [path] }, h(Routes, null, h(Route, { element: h(AuthLayout) }, h(Route, { path: path.split("?")[0], element: h(Page) }))))),
  );
}

/** The card with every part shown (the form error is only there after a failed submit). */
function FullCard() {
  return h(AuthCard, { title: "Title", description: "Line", error: "Failed", footer: h("a", { href: "/" }, "Link"), children: h("form", null) });
}

// The pages that do not load tailwind-merge (forgot/reset password register it themselves).
const PAGES: [string, ComponentType][] = [
  ["/login", LoginPage],
  ["/register", RegisterPage],
  ["/card", FullCard],
];

/**
 * The auth pages load without tailwind-merge (issue 9: /login ≤ 120 KiB gzip JS; web/src/lib/utils.ts
 * `cn` merges only once the app's pages register it). Fails when an auth page's classes conflict,
 * i.e. when it would look different without tailwind-merge.
 */
describe("auth pages without tailwind-merge", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });
  afterAll(() => setClassMerge((classes) => classes));

  for (const [path, Page] of PAGES) {
    it(`${path} renders the same classes with and without it`, () => {
      setClassMerge((classes) => classes);
      const plain = render(path, Page);
      setClassMerge(twMerge);
      const merged = render(path, Page);
      expect(plain).toContain("<form");
      expect(plain).toBe(merged);
    });
  }
});
