/**
 * Brand colours as text (issue 9; WCAG 2.1 §1.4.3): a franchise or the runtime settings choose one
 * primary colour for both themes, so primary-coloured text (links, highlights) is derived per theme
 * by contrast. Pure, shared by the web app (web/src/lib/branding.ts applies the variables) and the
 * worker (worker/lib/branding.ts writes them into a franchise host's first byte), so both paint
 * the same colour.
 */

/** Relative luminance of a #rgb / #rrggbb colour, or null when it is not one. */
export function luminance(hex: string): number | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join("") : match[1];
  const channel = (offset: number) => {
    const value = parseInt(digits.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** WCAG 2 contrast ratio of two relative luminances (1 to 21). */
function contrastRatio(a: number, b: number): number {
  const [light, dark] = a > b ? [a, b] : [b, a];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The surfaces primary-coloured text sits on, one per theme: the lowest-contrast surface of each
 * (web/src/index.css `--accent`: oklch(0.95 0.005 265) light, oklch(0.28 0.014 260) dark, as sRGB).
 * Text that reads on these reads on every surface of its theme (background, card, muted).
 */
export const TEXT_SURFACES = { light: "#edeef2", dark: "#252930" } as const;

/** WCAG 2.1 §1.4.3: the contrast normal-size text needs. */
const TEXT_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join("") : match[1];
  return [parseInt(digits.slice(0, 2), 16), parseInt(digits.slice(2, 4), 16), parseInt(digits.slice(4, 6), 16)];
}

function hexOf([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((value) => Math.round(value).toString(16).padStart(2, "0")).join("")}`;
}

/** WCAG 2 contrast ratio (1 to 21) of two `#rgb` / `#rrggbb` colours, or null when either is not one. */
export function contrastOf(a: string, b: string): number | null {
  const [x, y] = [luminance(a), luminance(b)];
  return x === null || y === null ? null : contrastRatio(x, y);
}

/**
 * `hex` as text on `surface` (both `#rgb` / `#rrggbb`): the colour itself (lower-case `#rrggbb`) when
 * it already reaches `minimum` contrast (WCAG 2.1 §1.4.3, 4.5:1 by default), else the least tint
 * (mixed towards white on a dark surface) or shade (towards black on a light one) that does, so
 * the text keeps the brand's hue. Works for any brand colour: white on a dark surface and black on
 * a light one always reach 4.5:1. Null when either value is not a colour.
 */
export function readableOn(hex: string, surface: string, minimum = TEXT_CONTRAST): string | null {
  const from = channels(hex);
  const ground = luminance(surface);
  if (!from || ground === null) return null;
  const target = contrastRatio(ground, 1) >= contrastRatio(ground, 0) ? 255 : 0;
  const mix = (amount: number) => hexOf([0, 1, 2].map((i) => from[i]! + (target - from[i]!) * amount) as [number, number, number]);
  const reaches = (amount: number) => contrastRatio(luminance(mix(amount)) ?? 0, ground) >= minimum;
  if (reaches(0)) return mix(0);
  // Contrast grows with the amount mixed in: bisect for the least amount, then step past rounding.
  let [low, high] = [0, 1];
  for (let step = 0; step < 16; step++) {
    const middle = (low + high) / 2;
    if (reaches(middle)) high = middle;
    else low = middle;
  }
  while (!reaches(high) && high < 1) high = Math.min(1, high + 1 / 512);
  return mix(high);
}

/**
 * The CSS variables of primary-coloured text (links, highlights: Tailwind's `text-primary`), one
 * per theme since the brand colour is one value for both: `--primary-on-light` and
 * `--primary-on-dark`, each {@link readableOn} that theme's {@link TEXT_SURFACES} surface.
 * web/src/index.css points `--primary-text` at the one of the theme in force. Null when `hex` is not
 * a colour.
 */
export function primaryTextVariables(hex: string | null | undefined): { "--primary-on-light": string; "--primary-on-dark": string } | null {
  if (!hex) return null;
  const light = readableOn(hex, TEXT_SURFACES.light);
  const dark = readableOn(hex, TEXT_SURFACES.dark);
  return light && dark ? { "--primary-on-light": light, "--primary-on-dark": dark } : null;
}
