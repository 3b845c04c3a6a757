/**
 * Custom field values on screen (issue 4 "Values are typed"): stored values are normalised text
 * (numbers as decimal text, dates `YYYY-MM-DD`, datetimes ms UTC as text, documents compact); they
 * are shown in the user's language and, for datetimes, in the company's time zone (named when it is
 * not the viewer's). Moments (formatMoment) are in the viewer's zone, as everywhere in the app. Form inputs use
 * the browser's typed inputs; a `datetime-local` value is a wall-clock time which the worker reads
 * in the company's time zone.
 */
import type { CustomFieldType } from "../../../schema/custom-fields";
import { documentKind, normalizeFieldValue } from "../../../schema/validation/contacts";
import { formatCompanyDateTime, formatDateTime } from "./dates";

/** How values are shown: the user's locale and the company's time zone. */
export type ValueFormat = { locale: string; timeZone: string };

/** The `<input type>` of a field type. */
export function inputTypeOf(type: CustomFieldType): "text" | "number" | "date" | "datetime-local" | "email" {
  switch (type) {
    case "number":
      return "number";
    case "date":
      return "date";
    case "datetime":
      return "datetime-local";
    case "email":
      return "email";
    default:
      return "text";
  }
}

/** A CPF `000.000.000-00` or CNPJ `00.000.000/0000-00` with its punctuation; other documents as stored. */
export function formatDocument(document: string): string {
  const kind = documentKind(document);
  if (kind === "cpf") return document.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4");
  if (kind === "cnpj") return document.replace(/^(\w{2})(\w{3})(\w{3})(\w{4})(\d{2})$/, "$1.$2.$3/$4-$5");
  if (kind === "cuit") return document.replace(/^(\d{2})(\d{8})(\d)$/, "$1-$2-$3");
  return document;
}

function safeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** A stored value as the screen shows it; "" for no value. Unparseable values are shown as stored. */
export function formatFieldValue(type: CustomFieldType, value: string | null | undefined, format: ValueFormat): string {
  if (value === null || value === undefined || value === "") return "";
  switch (type) {
    case "number": {
      const n = Number(value);
      return Number.isFinite(n) ? new Intl.NumberFormat(format.locale, { maximumFractionDigits: 10 }).format(n) : value;
    }
    case "date": {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!match) return value;
      const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
      return new Intl.DateTimeFormat(format.locale, { dateStyle: "medium", timeZone: "UTC" }).format(at);
    }
    case "datetime": {
      // Typed as the company's wall-clock time, so shown in its zone, naming it when not the viewer's.
      const ms = Number(value);
      if (!Number.isFinite(ms)) return value;
      return formatCompanyDateTime(ms, safeZone(format.timeZone), { locale: format.locale });
    }
    case "document":
      return formatDocument(value);
    default:
      return value;
  }
}

/**
 * A moment (ms UTC: a contact's creation, a message, a run) as date and time in the viewer's time
 * zone, like every moment the app shows (web/src/lib/dates.ts); `format.timeZone` is not used.
 */
export function formatMoment(ms: number, format: ValueFormat): string {
  return formatDateTime(ms, { locale: format.locale });
}

const pad = (n: number) => String(n).padStart(2, "0");

/** ms UTC as a `datetime-local` value (`YYYY-MM-DDTHH:MM`) on the wall clock of `timeZone`. */
export function toDatetimeLocal(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: safeZone(timeZone),
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  return `${String(get("year")).padStart(4, "0")}-${pad(get("month"))}-${pad(get("day"))}T${pad(get("hour"))}:${pad(get("minute"))}`;
}

/** A stored value as the form's input starts with it. */
export function toInputValue(type: CustomFieldType, stored: string | null | undefined, timeZone: string): string {
  if (stored === null || stored === undefined) return "";
  if (type === "datetime") {
    const ms = Number(stored);
    return Number.isFinite(ms) ? toDatetimeLocal(ms, timeZone) : stored;
  }
  return stored;
}

/**
 * The reason a typed value would be refused (the worker's own rules, normalizeFieldValue), or null
 * when it is fine. An empty value is fine: it clears the field.
 */
export function fieldInputError(type: CustomFieldType, raw: string, timeZone: string): string | null {
  if (!raw.trim()) return null;
  const result = normalizeFieldValue(type, raw, timeZone);
  return result.ok ? null : result.reason;
}

/** formatRelative lives in ./relative-time.ts (no schema imports, so the app shell can use it cheaply). */
export { formatRelative } from "./relative-time";
