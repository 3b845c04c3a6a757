import { describe, expect, it } from "vitest";
import { applySlashChoice, filterByName, findSlashQuery } from "./slash-command";
import { insertAt, templateVariables } from "./quick-message-form";

describe("the composer's / command", () => {
  it("opens on a slash at the start of the text or of a word", () => {
    expect(findSlashQuery("/", 1)).toEqual({ start: 0, end: 1, query: "" });
    expect(findSlashQuery("/bom", 4)).toEqual({ start: 0, end: 4, query: "bom" });
    expect(findSlashQuery("Olá /bo", 7)).toEqual({ start: 4, end: 7, query: "bo" });
    expect(findSlashQuery("linha\n/bo", 9)).toEqual({ start: 6, end: 9, query: "bo" });
  });

  it("does not open inside a word, a link or a path", () => {
    expect(findSlashQuery("e/ou", 4)).toBeNull();
    expect(findSlashQuery("https://x.com", 13)).toBeNull();
    expect(findSlashQuery("/a/b", 4)).toBeNull();
    expect(findSlashQuery("no slash", 8)).toBeNull();
  });

  it("reads the query up to the caret only, allowing single spaces but not a leading space or a new line", () => {
    expect(findSlashQuery("/bom dia", 8)?.query).toBe("bom dia");
    expect(findSlashQuery("/bom dia e mais", 4)).toEqual({ start: 0, end: 4, query: "bom" });
    expect(findSlashQuery("/ bom", 5)).toBeNull();
    expect(findSlashQuery("/bom  dia", 9)).toBeNull();
    expect(findSlashQuery("/bom\ndia", 8)).toBeNull();
    expect(findSlashQuery(`/${"x".repeat(61)}`, 62)).toBeNull();
  });

  it("replaces the /query with the chosen text and puts the caret after it", () => {
    const text = "Olá /bo tudo bem?";
    const match = findSlashQuery(text, 7);
    expect(match).not.toBeNull();
    if (!match) return;
    expect(applySlashChoice(text, match, "Bom dia, Maria!")).toEqual({ text: "Olá Bom dia, Maria! tudo bem?", caret: 19 });
  });

  it("filters by name ignoring case and accents, names starting with the query first", () => {
    const items = [{ name: "Obrigado" }, { name: "Bom dia" }, { name: "Horário de atendimento" }, { name: "Até amanhã, bom descanso" }];
    expect(filterByName(items, "").map((i) => i.name)).toEqual(items.map((i) => i.name));
    expect(filterByName(items, "BOM").map((i) => i.name)).toEqual(["Bom dia", "Até amanhã, bom descanso"]);
    expect(filterByName(items, "horario").map((i) => i.name)).toEqual(["Horário de atendimento"]);
    expect(filterByName(items, "ate bom").map((i) => i.name)).toEqual(["Até amanhã, bom descanso"]);
    expect(filterByName(items, "zzz")).toEqual([]);
  });
});

describe("the quick message editor", () => {
  it("inserts a variable in place of the selection", () => {
    expect(insertAt("Olá !", 4, 4, "{{first_name}}")).toEqual({ text: "Olá {{first_name}}!", caret: 18 });
    expect(insertAt("Olá XX!", 4, 6, "{{first_name}}")).toEqual({ text: "Olá {{first_name}}!", caret: 18 });
    expect(insertAt("abc", 10, 12, "!")).toEqual({ text: "abc!", caret: 4 });
  });

  it("offers the built-ins first (first_name leading) and each company field once", () => {
    const vars = templateVariables([
      { key: "full_name", name: "Full name", kind: "default" },
      { key: "birthday", name: "Birthday", kind: "user" },
      { key: "coupon", name: "Coupon", kind: "bot" },
      { key: "birthday", name: "Birthday again", kind: "user" },
    ]);
    expect(vars[0]).toEqual({ key: "first_name", name: null });
    expect(vars.filter((v) => v.name !== null)).toEqual([
      { key: "birthday", name: "Birthday" },
      { key: "coupon", name: "Coupon" },
    ]);
    expect(vars.filter((v) => v.key === "full_name")).toHaveLength(1);
  });
});
