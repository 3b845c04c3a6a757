/**
 * Times of day written the app language's way (issue 9 "date inputs follow the language"): 19:30 in
 * pt-BR and es-ES, 7:30 PM in en-US, whatever the browser's own language. The browser's
 * `<input type="time">` follows the operating system instead, so every time field of the app is
 * {@link import("@/components/ui/time-field").TimeField}, whose editing rules live here as pure
 * functions. Values are always `HH:MM` on 24 hours ("" for none), the form the API takes.
 *
 * The layout (12 or 24 hours, the order of hour, minute and AM/PM, the separators and the AM/PM
 * words) is read from `Intl.DateTimeFormat` for the language, the same source the rest of the app
 * formats times with.
 */

/** The editable parts of a time, in the order the language writes them. */
export type TimeSegment = "hour" | "minute" | "dayPeriod";

/** How a language writes a time of day. */
export type TimeLayout = {
  /** 12 hours with AM/PM (en-US), else 24 hours. */
  hour12: boolean;
  /** Segments and the literal text between them, in writing order. */
  parts: ({ type: TimeSegment } | { type: "literal"; value: string })[];
  /** The editable segments in writing order. */
  segments: TimeSegment[];
  /** Whether hours take two digits ("09:05" in pt-BR, "9:05 AM" in en-US). */
  padHour: boolean;
  /** The language's words for before and after noon ("AM", "PM"). */
  dayPeriods: [string, string];
};

/** What the field holds: `hour` is 1–12 with `period` (0 before noon, 1 after) in 12-hour layouts, else 0–23. */
export type TimeSegments = { hour: number | null; minute: number | null; period: 0 | 1 | null };

/** The field's editing state: its segments, the segment with the caret and the digits typed into it so far. */
export type TimeFieldState = { segments: TimeSegments; active: TimeSegment; typed: string };

/** What an empty segment shows. */
export const EMPTY_SEGMENT = "--";

const TIME = /^([01]\d|2[0-3]):([0-5]\d)/;
const layouts = new Map<string, TimeLayout>();

/** The layout of `locale` (cached per locale). */
export function timeLayout(locale: string): TimeLayout {
  const known = layouts.get(locale);
  if (known) return known;
  const format = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  const cycle = format.resolvedOptions().hourCycle;
  const hour12 = cycle === "h11" || cycle === "h12";
  const sample = (hour: number) => format.formatToParts(new Date(Date.UTC(2000, 0, 1, hour, 5)));
  const morning = sample(9);
  const parts: TimeLayout["parts"] = [];
  for (const part of morning) {
    if (part.type === "hour" || part.type === "minute" || part.type === "dayPeriod") parts.push({ type: part.type });
    else if (part.type === "literal") parts.push({ type: "literal", value: part.value });
  }
  const period = (parts: Intl.DateTimeFormatPart[], fallback: string) => parts.find((part) => part.type === "dayPeriod")?.value ?? fallback;
  const layout: TimeLayout = {
    hour12,
    parts,
    segments: parts.flatMap((part) => (part.type === "literal" ? [] : [part.type])),
    padHour: (morning.find((part) => part.type === "hour")?.value.length ?? 1) === 2,
    dayPeriods: [period(morning, "AM"), period(sample(21), "PM")],
  };
  layouts.set(locale, layout);
  return layout;
}

/** The segments of an `HH:MM` value ("" or anything else: all empty). */
export function segmentsOf(value: string, layout: TimeLayout): TimeSegments {
  const match = TIME.exec(value);
  if (!match) return { hour: null, minute: null, period: null };
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return layout.hour12 ? { hour: hour % 12 || 12, minute, period: hour >= 12 ? 1 : 0 } : { hour, minute, period: null };
}

/** The `HH:MM` value of complete segments, or "" while one is missing (AM/PM too, in 12-hour layouts). */
export function valueOf(segments: TimeSegments, layout: TimeLayout): string {
  const { hour, minute, period } = segments;
  if (hour === null || minute === null || (layout.hour12 && period === null)) return "";
  const hours = layout.hour12 ? (hour % 12) + (period === 1 ? 12 : 0) : hour;
  return `${String(hours).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** The text a segment shows: its value as the language writes it, the digits being typed, or {@link EMPTY_SEGMENT}. */
function segmentText(segment: TimeSegment, state: Pick<TimeFieldState, "segments" | "typed" | "active">, layout: TimeLayout): string {
  const { hour, minute, period } = state.segments;
  if (segment === "dayPeriod") return period === null ? EMPTY_SEGMENT : layout.dayPeriods[period];
  const typing = state.active === segment && state.typed !== "";
  const number = segment === "hour" ? hour : minute;
  if (number === null) return typing ? state.typed.padStart(2, "0") : EMPTY_SEGMENT;
  return segment === "minute" || layout.padHour ? String(number).padStart(2, "0") : String(number);
}

/**
 * What the field shows for `state` ("" when every segment is empty and nothing is being typed, so
 * the placeholder shows) and where each segment lies in it (`[start, end)` character offsets, for
 * the selection).
 */
export function displayOf(state: Pick<TimeFieldState, "segments" | "typed" | "active">, layout: TimeLayout): { text: string; ranges: Record<TimeSegment, [number, number]> } {
  const ranges: Record<TimeSegment, [number, number]> = { hour: [0, 0], minute: [0, 0], dayPeriod: [0, 0] };
  const { hour, minute, period } = state.segments;
  if (hour === null && minute === null && period === null && state.typed === "") return { text: "", ranges };
  let text = "";
  for (const part of layout.parts) {
    if (part.type === "literal") {
      text += part.value;
      continue;
    }
    const shown = segmentText(part.type, state, layout);
    ranges[part.type] = [text.length, text.length + shown.length];
    text += shown;
  }
  return { text, ranges };
}

/** The placeholder of an empty field: the layout with every segment empty ("--:--", "--:-- --"). */
export function placeholderOf(layout: TimeLayout): string {
  return layout.parts.map((part) => (part.type === "literal" ? part.value : EMPTY_SEGMENT)).join("");
}

/** An `HH:MM` value as the language writes it ("19:30", "7:30 PM"), or "" when it is not one. */
export function formatTimeOfDay(value: string, locale: string): string {
  const layout = timeLayout(locale);
  const segments = segmentsOf(value, layout);
  return segments.hour === null ? "" : displayOf({ segments, typed: "", active: "hour" }, layout).text;
}

/**
 * A time written freely (pasted, or typed by a keyboard that sends no key codes): "19:30", "7:30 PM",
 * "7.30pm", "0730", "7 p" → its `HH:MM` value; "" when it reads as no time.
 */
export function parseTimeOfDay(text: string, layout: TimeLayout): string {
  const match = /^\s*(\d{1,2})(?:\s*[:.h]?\s*(\d{2}))?\s*([^\d\s])?/i.exec(text.trim());
  if (!match) return "";
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const letter = match[3]?.toLowerCase();
  const period = letter ? periodOfLetter(letter, layout) : null;
  if (period !== null) {
    if (hour < 1 || hour > 12) return "";
    hour = (hour % 12) + period * 12;
  }
  if (hour > 23 || minute > 59) return "";
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** 0 or 1 when `letter` starts the language's word for before or after noon (or is "a"/"p"), else null. */
function periodOfLetter(letter: string, layout: TimeLayout): 0 | 1 | null {
  const [am, pm] = layout.dayPeriods.map((word) => word.trim().charAt(0).toLowerCase());
  if (am !== pm && letter === am) return 0;
  if (am !== pm && letter === pm) return 1;
  if (letter === "a") return 0;
  if (letter === "p") return 1;
  return null;
}

/** The value of one segment (null when empty). */
function valueAt(segments: TimeSegments, segment: TimeSegment): number | null {
  return segment === "hour" ? segments.hour : segment === "minute" ? segments.minute : segments.period;
}

/** `segments` with `segment` emptied. */
function cleared(segments: TimeSegments, segment: TimeSegment): TimeSegments {
  if (segment === "hour") return { ...segments, hour: null };
  if (segment === "minute") return { ...segments, minute: null };
  return { ...segments, period: null };
}

/** The state that moves the caret to the segment `by` places away (it stays at either end). */
function move(state: TimeFieldState, by: number, layout: TimeLayout): TimeFieldState {
  const index = layout.segments.indexOf(state.active) + by;
  const active = layout.segments[Math.max(0, Math.min(layout.segments.length - 1, index))] ?? state.active;
  return { ...state, active, typed: "" };
}

/** `value` stepped by `by` in a cycle of `size` values starting at `first`; an empty value starts at either end. */
function step(value: number | null, by: 1 | -1, first: number, size: number): number {
  if (value === null) return by === 1 ? first : first + size - 1;
  return first + ((((value - first + by) % size) + size) % size);
}

/** A digit typed into the hour: two digits at most, moving on once no further digit can follow. */
function typeHour(state: TimeFieldState, digit: number, layout: TimeLayout): TimeFieldState {
  const set = (hour: number | null, typed: string, done: boolean): TimeFieldState => {
    const next = { ...state, segments: { ...state.segments, hour }, typed };
    return done ? move(next, 1, layout) : next;
  };
  const first = (d: number): TimeFieldState => {
    if (layout.hour12) return d === 0 ? set(null, "0", false) : set(d, String(d), d > 1);
    return set(d, String(d), d > 2);
  };
  if (state.typed.length !== 1) return first(digit);
  const both = Number(state.typed) * 10 + digit;
  const fits = layout.hour12 ? both >= 1 && both <= 12 : both <= 23;
  if (fits) return set(both, "", true);
  // "13" in a 12-hour field, "25" in a 24-hour one: the hour was the first digit, the second starts the minute.
  const next = move(state, 1, layout);
  return state.segments.hour !== null && next.active === "minute" ? typeMinute(next, digit, layout) : first(digit);
}

/** A digit typed into the minute: the first (0–5) waits for a second, anything else completes it. */
function typeMinute(state: TimeFieldState, digit: number, layout: TimeLayout): TimeFieldState {
  if (state.typed.length === 1) return move({ ...state, segments: { ...state.segments, minute: Number(state.typed) * 10 + digit } }, 1, layout);
  const next = { ...state, segments: { ...state.segments, minute: digit }, typed: String(digit) };
  return digit > 5 ? move(next, 1, layout) : next;
}

/**
 * The state after `key` (a KeyboardEvent `key`) in the field, or null when the key is not the
 * field's (Tab, Enter, shortcuts: the browser handles it).
 * - digits fill the segment with the caret and move on when it is complete (a second hour digit
 *   that cannot follow the first, as in "13" on 12 hours, starts the minute);
 * - ArrowUp / ArrowDown step it (wrapping; AM/PM toggles), ArrowLeft / ArrowRight, Home / End move
 *   between segments; ":" "." and space move on;
 * - "a" / "p" (or the first letter of the language's AM/PM words) set AM/PM from any segment;
 * - Backspace / Delete clear the segment (the digits typed first), then Backspace goes back one;
 * - any other character is refused (the state unchanged).
 */
export function timeFieldKey(state: TimeFieldState, key: string, layout: TimeLayout): TimeFieldState | null {
  const { segments, active } = state;
  if (key === "ArrowLeft") return move(state, -1, layout);
  if (key === "ArrowRight") return move(state, 1, layout);
  if (key === "Home") return move(state, -layout.segments.length, layout);
  if (key === "End") return move(state, layout.segments.length, layout);
  if (key === "ArrowUp" || key === "ArrowDown") {
    const by = key === "ArrowUp" ? 1 : -1;
    const stepped: TimeSegments =
      active === "hour"
        ? { ...segments, hour: layout.hour12 ? step(segments.hour === null ? null : segments.hour % 12, by, 0, 12) || 12 : step(segments.hour, by, 0, 24) }
        : active === "minute"
          ? { ...segments, minute: step(segments.minute, by, 0, 60) }
          : { ...segments, period: segments.period === null ? (by === 1 ? 0 : 1) : segments.period === 0 ? 1 : 0 };
    return { ...state, segments: stepped, typed: "" };
  }
  if (key === "Backspace" || key === "Delete") {
    if (state.typed !== "" || valueAt(segments, active) !== null) return { ...state, typed: "", segments: cleared(segments, active) };
    return key === "Backspace" ? move(state, -1, layout) : state;
  }
  if (key.length !== 1) return null;
  if (/\d/.test(key)) {
    const digit = Number(key);
    if (active === "hour") return typeHour(state, digit, layout);
    if (active === "minute") return typeMinute(state, digit, layout);
    return state;
  }
  if (key === ":" || key === "." || key === " ") return valueAt(segments, active) === null ? state : move(state, 1, layout);
  const period = layout.hour12 ? periodOfLetter(key.toLowerCase(), layout) : null;
  if (period !== null) return { ...state, segments: { ...segments, period }, active: "dayPeriod", typed: "" };
  return state;
}
