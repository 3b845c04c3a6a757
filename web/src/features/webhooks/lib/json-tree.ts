/**
 * A received body as a tree the mapping editor shows (issue 11: "pick the mapping paths by
 * clicking fields of a captured body"): each node with the body path that `valueAtPath` reads
 * (schema/validation/webhooks.ts), so a clicked leaf becomes a mapping, condition or field path.
 * Pure; capped so a 1 MiB body cannot freeze the screen.
 */
import { formatBodyPath, type PathStep } from "../../../../../schema/validation/webhooks";

/** One node: an object or array with children, or a leaf with its value as text. */
export type JsonNode =
  | { kind: "branch"; key: string; path: string; isArray: boolean; children: JsonNode[]; hidden: number }
  | { kind: "leaf"; key: string; path: string; text: string; type: "string" | "number" | "boolean" | "null" };

/** Children shown per object or array (the rest are counted in `hidden`). */
export const MAX_CHILDREN = 100;
/** Deepest level shown. */
export const MAX_DEPTH = 12;

function leafOf(key: string, steps: PathStep[], value: unknown): JsonNode {
  const path = formatBodyPath(steps);
  if (value === null || value === undefined) return { kind: "leaf", key, path, text: "null", type: "null" };
  if (typeof value === "number") return { kind: "leaf", key, path, text: String(value), type: "number" };
  if (typeof value === "boolean") return { kind: "leaf", key, path, text: String(value), type: "boolean" };
  return { kind: "leaf", key, path, text: String(value), type: "string" };
}

/** The nodes of `body`'s top level (a scalar body is one leaf with an empty path). */
export function jsonTree(body: unknown): JsonNode[] {
  const walk = (value: unknown, steps: PathStep[], depth: number): JsonNode[] => {
    const entries: [string, PathStep, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`[${i}]`, i, v])
      : typeof value === "object" && value !== null
        ? Object.entries(value).map(([k, v]) => [k, k, v])
        : [];
    return entries.slice(0, MAX_CHILDREN).map(([key, step, child]) => {
      const childSteps = [...steps, step];
      if (typeof child === "object" && child !== null && depth < MAX_DEPTH) {
        const size = Array.isArray(child) ? child.length : Object.keys(child).length;
        return { kind: "branch", key, path: formatBodyPath(childSteps), isArray: Array.isArray(child), children: walk(child, childSteps, depth + 1), hidden: Math.max(0, size - MAX_CHILDREN) };
      }
      if (typeof child === "object" && child !== null) return leafOf(key, childSteps, JSON.stringify(child));
      return leafOf(key, childSteps, child);
    });
  };
  if (typeof body !== "object" || body === null) return [leafOf("", [], body)];
  return walk(body, [], 0);
}
