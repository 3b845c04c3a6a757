import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { activateLocale } from "./i18n";
import { COUNT_MESSAGES, countText, shownCount, type CountKind } from "./counts";

describe("counts are ICU plurals (issue 9)", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });

  it("says 1 contact, 0 contacts, 2 contacts", () => {
    expect(countText(i18n, "contacts", 1)).toBe("1 contact");
    expect(countText(i18n, "contacts", 0)).toBe("0 contacts");
    expect(countText(i18n, "contacts", 2)).toBe("2 contacts");
    expect(countText(i18n, "contactsMatch", 1)).toBe("1 contact matches");
    expect(countText(i18n, "messagesCreated", 1)).toBe("1 message created");
    expect(countText(i18n, "messagesCreated", 0)).toBe("0 messages created");
    expect(countText(i18n, "blocksCopied", 1)).toBe("1 block copied.");
    expect(countText(i18n, "rules", 1)).toBe("1 rule");
    expect(countText(i18n, "bytes", 1)).toBe("1 byte");
    expect(countText(i18n, "tags", 1)).toBe("1 tag");
    expect(countText(i18n, "deleteContacts", 1)).toBe("Delete 1 contact?");
    expect(countText(i18n, "allContactsShown", 1)).toBe("1 contact shown.");
    expect(countText(i18n, "importedRefused", 3, { refused: 1 })).toBe("3 imported, 1 refused.");
    expect(countText(i18n, "conversationUnread", 1, { name: "Ana" })).toBe("Conversation with Ana, 1 unread");
  });

  it("formats the number in the language and shows a capped count with +", () => {
    expect(countText(i18n, "contacts", 12345)).toBe("12,345 contacts");
    expect(countText(i18n, "contacts", 10000, { shown: shownCount(i18n, 10000, true) })).toBe("10,000+ contacts");
  });

  it("every count message has a one and an other form and names no bare number", () => {
    for (const kind of Object.keys(COUNT_MESSAGES) as CountKind[]) {
      const one = countText(i18n, kind, 1, { name: "N", limit: 100, refused: 2 });
      const other = countText(i18n, kind, 2, { name: "N", limit: 100, refused: 2 });
      expect(one, kind).toContain("1");
      expect(other, kind).toContain("2");
      expect(one, kind).not.toMatch(/[{}]/);
    }
  });

  it("no screen interpolates a count straight before a noun in a message", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk(root);
    const offenders: string[] = [];
    // `${count} things`, `${total} contacts`, `${list.length} tags`… inside t`…` or msg`…` ("N of M" is no noun).
    // A lower-case name must start a word (`discount` is no count); camel-case parts (`rowCount`) count.
    const bare = /(?:\bt|\bmsg)`[^`]*\$\{[^}]*(?:(?<![a-z])(?:count|total|length|size|shown)|Count|Total|Text)\}\s+(?!of\b)[a-zA-Z]/g;
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(bare)) offenders.push(`${file.slice(root.length)}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});
