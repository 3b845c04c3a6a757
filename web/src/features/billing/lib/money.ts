/**
 * Money on billing screens (DESIGN.md "API conventions": money is integer cents with a currency).
 * Amounts are shown in the viewer's language through Intl.NumberFormat (pt-BR "R$ 1.234,56",
 * en-US "R$1,234.56"); the admin's money input is typed as a decimal in the viewer's language and
 * stored as cents.
 */
import { i18n } from "@lingui/core";

/** The currency of every plan and invoice (issue 13: prices are BRL cents). */
export const CURRENCY = "BRL";

/** `cents` as a currency amount in `locale` (default: lingui's active one), e.g. 123456 → "R$ 1.234,56". */
export function formatMoney(cents: number, locale?: string, currency = CURRENCY): string {
  return new Intl.NumberFormat(locale || i18n.locale || "pt-BR", { style: "currency", currency }).format(cents / 100);
}

/** The decimal separator of `locale` ("," for pt-BR and es-ES, "." for en-US). */
export function decimalSeparator(locale?: string): string {
  const parts = new Intl.NumberFormat(locale || i18n.locale || "pt-BR").formatToParts(1.5);
  return parts.find((part) => part.type === "decimal")?.value ?? ".";
}

/** `cents` as the text of a money input in `locale`, without the currency symbol: 123456 → "1234,56". */
export function centsToInput(cents: number, locale?: string): string {
  const whole = Math.trunc(cents / 100);
  const fraction = String(Math.abs(cents % 100)).padStart(2, "0");
  return `${whole}${decimalSeparator(locale)}${fraction}`;
}

/**
 * The cents of a money input's text in `locale`: "1.234,56" / "1234,56" / "R$ 10" (pt-BR) or
 * "1,234.56" (en-US). Grouping separators are ignored, at most two decimals; null when the text is
 * not an amount (empty, letters, negative, three decimals).
 */
export function inputToCents(text: string, locale?: string): number | null {
  const decimal = decimalSeparator(locale);
  const cleaned = text.replace(/R\$|\s|\u00a0/g, "");
  if (!cleaned) return null;
  const [whole = "", fraction = "", ...rest] = cleaned.split(decimal);
  if (rest.length > 0) return null;
  const digits = whole.replace(decimal === "," ? /\./g : /,/g, "");
  if (!/^\d+$/.test(digits) || !/^\d{0,2}$/.test(fraction)) return null;
  const cents = Number(digits) * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}
