import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveImport, src, STATIC_IMPORT } from "./import-graph";

/**
 * What every signed-in page runs before its screen (issue 9: /chats ≤ 250 KiB gzip JS, measured by
 * `npm run bench:web`): the default layout and what it imports statically. The bench's owner has not
 * verified their e-mail, so the shell shows the 6-digit code form on every page; that form is a
 * controlled form (components/code-form.tsx), and react-hook-form (15 KiB gzip) is loaded only by
 * the screens whose forms use it. Fails naming the shell's files that import it.
 */

/** The packages each file statically reached from `entry` imports, by file (relative to web/src). */
function packagesReached(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop();
    if (!file || found.has(relative(src, file)) || !/\.tsx?$/.test(file)) continue;
    const packages: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      const specifier = match[1] ?? match[2] ?? "";
      const next = resolveImport(file, specifier);
      if (next) stack.push(next);
      else if (!specifier.startsWith(".") && !specifier.startsWith("@/")) packages.push(specifier);
    }
    found.set(relative(src, file), packages);
  }
  return found;
}

describe("the signed-in shell's static imports", () => {
  it("do not include react-hook-form (the e-mail verification and activation code form is a controlled form)", () => {
    const reached = packagesReached(resolve(src, "app/layouts/default-layout.tsx"));
    expect(reached.has("components/code-form.tsx")).toBe(true);
    const offenders = [...reached].filter(([, packages]) => packages.some((name) => name === "react-hook-form" || name.startsWith("@hookform/"))).map(([file]) => file);
    expect(offenders).toEqual([]);
  });
});
