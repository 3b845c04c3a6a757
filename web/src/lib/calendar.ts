/**
 * Calendar helpers shared by every date picker (issue 9: "date inputs follow the language"): the
 * react-day-picker locale of an app language, and the plain `YYYY-MM-DD` day strings the forms keep
 * (a calendar day, no time zone: the form decides which zone it means).
 */
import type { Locale } from "react-day-picker";
import { enUS, es, pt, ptBR } from "react-day-picker/locale";

/** The calendar locale (month names, first day of the week) of an app language; English otherwise. */
export function calendarLocale(language: string): Locale {
  if (language === "pt-BR") return ptBR;
  if (language === "pt-PT") return pt;
  if (language.startsWith("es")) return es;
  return enUS;
}

/** `YYYY-MM-DD` → the local Date at noon of that day (noon: no DST edge moves it), or undefined when it is no real day. */
export function dayToDate(day: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const [year, month, dayOfMonth] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, dayOfMonth, 12);
  // Not a real day (month 13, February 30): the Date rolls over, so it no longer reads back the same.
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === dayOfMonth ? date : undefined;
}

/** A local Date → its `YYYY-MM-DD` day. */
export function dateToDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A `YYYY-MM-DD` day written the app language's way ("5 de mar. de 2026", "Mar 5, 2026"), or "" when not a day. */
export function formatDay(day: string, language: string): string {
  const date = dayToDate(day);
  return date ? new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(date) : "";
}
