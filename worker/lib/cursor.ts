/**
 * Opaque keyset cursors (DESIGN.md "Lists: cursor pagination"): the sort key of a page's last row,
 * as base64url JSON. Malformed cursors answer 400 `validation_failed` with `cursor: invalid_cursor`.
 */
import { AppError } from "./errors";

const invalid = () => new AppError("validation_failed", "Invalid cursor.", { cursor: "invalid_cursor" });

/** Encodes a sort key (numbers and strings). */
export function encodeCursor(parts: (string | number)[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(parts));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeParts(cursor: string): unknown {
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw invalid();
  }
}

/** A `[number, id]` cursor (e.g. created_at, id), or null when absent. */
export function decodeNumberCursor(cursor: string | undefined): [number, string] | null {
  if (!cursor) return null;
  const parts = decodeParts(cursor);
  if (!Array.isArray(parts) || parts.length !== 2) throw invalid();
  const [first, second] = parts;
  if (typeof first !== "number" || !Number.isFinite(first) || typeof second !== "string" || !second) throw invalid();
  return [first, second];
}

/** A `[text, id]` cursor (e.g. name, id), or null when absent. */
export function decodeTextCursor(cursor: string | undefined): [string, string] | null {
  if (!cursor) return null;
  const parts = decodeParts(cursor);
  if (!Array.isArray(parts) || parts.length !== 2) throw invalid();
  const [first, second] = parts;
  if (typeof first !== "string" || typeof second !== "string" || !second) throw invalid();
  return [first, second];
}

/** Splits `items` into arrays of at most `size` (D1 binds at most 100 parameters per query). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
