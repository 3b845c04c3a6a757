/**
 * Tag colours (spec §3 Tag; worker: `#rrggbb`, stored lower-case): the picker's small palette and
 * the hex input's parsing.
 */

/** The palette offered first; each reads on light and dark backgrounds. */
export const TAG_PALETTE = ["#ef4444", "#f97316", "#eab308", "#22c55e", "#14b8a6", "#3b82f6", "#6366f1", "#a855f7", "#ec4899", "#64748b"] as const;

/** The colour a new tag starts with. */
export const DEFAULT_TAG_COLOR = TAG_PALETTE[5];

/**
 * A typed hex colour as the API wants it (`#rrggbb`, lower case), or null when it is not one.
 * Accepts the `#` missing and the 3-digit short form (`#0af` → `#00aaff`).
 */
export function normalizeHexColor(raw: string): string | null {
  const text = raw.trim().replace(/^#/, "");
  if (/^[0-9a-f]{6}$/i.test(text)) return `#${text.toLowerCase()}`;
  if (/^[0-9a-f]{3}$/i.test(text)) return `#${[...text.toLowerCase()].map((c) => c + c).join("")}`;
  return null;
}

/** Black or white, whichever reads better on `color` (`#rrggbb`). */
export function readableTextColor(color: string): "#000000" | "#ffffff" {
  const hex = normalizeHexColor(color) ?? "#64748b";
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const luminance = 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  return luminance > 0.6 ? "#000000" : "#ffffff";
}
