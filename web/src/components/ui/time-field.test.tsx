import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { setupI18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { TimeField } from "./time-field";
import { DateTimeField } from "./date-picker";
import { displayOf, formatTimeOfDay, parseTimeOfDay, placeholderOf, segmentsOf, timeFieldKey, timeLayout, valueOf, type TimeFieldState } from "@/lib/time-of-day";

/** The markup of `element` in `locale` (no catalog needed: the field shows no message). */
function render(locale: string, element: React.ReactElement): string {
  const i18n = setupI18n({ locale, messages: { [locale]: {} } });
  return renderToStaticMarkup(<I18nProvider i18n={i18n}>{element}</I18nProvider>);
}

/** What the time field shows for `value` in `locale`, spaces made plain (en-US puts a narrow one before PM). */
function shown(locale: string, value: string): string {
  const html = render(locale, <TimeField value={value} onChange={() => {}} aria-label="Time" />);
  return (/ value="([^"]*)"/.exec(html)?.[1] ?? "").replace(/\s/g, " ");
}

/** The value the form gets after typing `keys` into an empty field in `locale`. */
function typed(locale: string, keys: string[], from = ""): { value: string; text: string } {
  const layout = timeLayout(locale);
  let state: TimeFieldState = { segments: segmentsOf(from, layout), active: "hour", typed: "" };
  for (const key of keys) state = timeFieldKey(state, key, layout) ?? state;
  return { value: valueOf(state.segments, layout), text: displayOf(state, layout).text.replace(/\s/g, " ") };
}

describe("TimeField follows the app's language, not the browser's (issue 9)", () => {
  it("shows 19:30 in pt-BR and es-ES, 7:30 PM in en-US, for the value 19:30", () => {
    expect(shown("pt-BR", "19:30")).toBe("19:30");
    expect(shown("es-ES", "19:30")).toBe("19:30");
    expect(shown("en-US", "19:30")).toBe("7:30 PM");
    expect(shown("en-US", "00:05")).toBe("12:05 AM");
    expect(shown("pt-BR", "")).toBe("");
  });

  it("is a named text input with the language's placeholder, never the browser's type=time", () => {
    const html = render("en-US", <TimeField value="" onChange={() => {}} aria-label="Opens at" />);
    expect(html).toContain('type="text"');
    expect(html).not.toContain('type="time"');
    expect(html).toContain('aria-label="Opens at"');
    expect(placeholderOf(timeLayout("en-US")).replace(/\s/g, " ")).toBe("--:-- --");
    expect(placeholderOf(timeLayout("pt-BR"))).toBe("--:--");
  });

  it("DateTimeField's time part follows the language too", () => {
    const html = render("en-US", <DateTimeField value="2026-11-24T19:30" onChange={() => {}} aria-label="Ends" />).replace(/\s/g, " ");
    expect(html).toContain('value="7:30 PM"');
    expect(html).not.toContain('type="time"');
  });

  it("typing gives 19:30 to the form: 1 9 3 0 in pt-BR, 7 3 0 p in en-US", () => {
    expect(typed("pt-BR", ["1", "9", "3", "0"])).toEqual({ value: "19:30", text: "19:30" });
    expect(typed("en-US", ["7", "3", "0", "p"])).toEqual({ value: "19:30", text: "7:30 PM" });
    expect(typed("en-US", ["0", "7", "3", "0", "P"]).value).toBe("19:30");
    expect(typed("es-ES", ["1", "9", ":", "3", "0"]).value).toBe("19:30");
  });

  it("stays empty for the form until the time is complete (AM/PM included in en-US)", () => {
    expect(typed("en-US", ["7", "3", "0"])).toEqual({ value: "", text: "7:30 --" });
    expect(typed("pt-BR", ["1", "9"])).toEqual({ value: "", text: "19:--" });
  });

  it("moves on once no further digit fits: 7 then 45 in pt-BR is 07:45; 1 3 0 a in en-US is 1:30 AM", () => {
    expect(typed("pt-BR", ["7", "4", "5"]).value).toBe("07:45");
    expect(typed("pt-BR", ["2", "5"]).value).toBe("02:05");
    expect(typed("en-US", ["1", "3", "0", "a"]).value).toBe("01:30");
    expect(typed("en-US", ["1", "2", "0", "0", "a"]).value).toBe("00:00");
  });

  it("arrow keys step the segment with the caret and move between segments", () => {
    expect(typed("pt-BR", ["ArrowUp"], "23:59").value).toBe("00:59");
    expect(typed("pt-BR", ["ArrowRight", "ArrowUp"], "23:59").value).toBe("23:00");
    expect(typed("pt-BR", ["ArrowRight", "ArrowDown"], "10:00").value).toBe("10:59");
    // As in the native field, the hour cycles 12, 1 … 11 and leaves AM/PM alone.
    expect(typed("en-US", ["ArrowUp"], "11:30").value).toBe("00:30");
    expect(typed("en-US", ["ArrowUp"], "").text.replace(/\s/g, " ")).toBe("12:-- --");
    expect(typed("en-US", ["End", "ArrowUp"], "09:30").value).toBe("21:30");
    expect(typed("en-US", ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowDown"], "09:30").value).toBe("08:30");
  });

  it("Backspace clears the segment, then goes back; letters other than AM/PM are refused", () => {
    expect(typed("pt-BR", ["ArrowRight", "Backspace"], "19:30")).toEqual({ value: "", text: "19:--" });
    expect(typed("pt-BR", ["ArrowRight", "Backspace", "Backspace", "Backspace"], "19:30")).toEqual({ value: "", text: "" });
    expect(typed("pt-BR", ["x", "p"], "19:30").value).toBe("19:30");
    expect(timeFieldKey({ segments: segmentsOf("", timeLayout("pt-BR")), active: "hour", typed: "" }, "Tab", timeLayout("pt-BR"))).toBeNull();
  });

  it("reads a pasted time in either convention", () => {
    expect(parseTimeOfDay("19:30", timeLayout("pt-BR"))).toBe("19:30");
    expect(parseTimeOfDay("7:30 PM", timeLayout("en-US"))).toBe("19:30");
    expect(parseTimeOfDay("7.30pm", timeLayout("en-US"))).toBe("19:30");
    expect(parseTimeOfDay("12 am", timeLayout("en-US"))).toBe("00:00");
    expect(parseTimeOfDay("25:00", timeLayout("pt-BR"))).toBe("");
    expect(parseTimeOfDay("hello", timeLayout("pt-BR"))).toBe("");
    expect(formatTimeOfDay("19:30", "en-US").replace(/\s/g, " ")).toBe("7:30 PM");
  });
});

/** Every .tsx file under web/src. */
function screens(folder = fileURLToPath(new URL("../..", import.meta.url))): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? screens(join(folder, entry.name)) : entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx") ? [join(folder, entry.name)] : [],
  );
}

describe("no screen uses the browser's own date or time input (issue 9)", () => {
  it("no type=time, type=date, datetime-local, month or week input is left in web/src", () => {
    const native = /type=(?:\{[^}]*)?["'](?:time|date|datetime-local|month|week)["']/;
    const found = screens().filter((file) => native.test(readFileSync(file, "utf8").replace(/^\s*(?:\*|\/\/).*$/gm, "")));
    expect(found.map((file) => file.slice(file.indexOf("web/src")))).toEqual([]);
  });
});
