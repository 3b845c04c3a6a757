/**
 * A time-of-day field in the app's language (issue 9 "date inputs follow the language"): 19:30 in
 * pt-BR and es-ES, 7:30 PM in en-US, whatever the browser's language (the browser's own
 * `<input type="time">` follows the operating system, so a pt-BR user on an English system read
 * "07:30 PM"). One text input, so a `<label for>` (FormField) or `aria-label` names it and it is one
 * tab stop, edited by segments like the native field: digits fill the hour, then the minute, then
 * AM/PM; ArrowUp/ArrowDown step the segment with the caret, ArrowLeft/ArrowRight move between
 * segments, "a"/"p" set AM/PM, Backspace clears. The rules are web/src/lib/time-of-day.ts.
 *
 * The value is always `HH:MM` on 24 hours ("" while empty or incomplete), the form the API takes;
 * `onChange` is called only when it changes.
 */
import { useLayoutEffect, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent, type Ref } from "react";
import { useLingui } from "@lingui/react/macro";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { displayOf, parseTimeOfDay, placeholderOf, segmentsOf, timeFieldKey, timeLayout, valueOf, type TimeFieldState, type TimeLayout, type TimeSegment } from "@/lib/time-of-day";

export type TimeFieldProps = {
  /** `HH:MM` (24 hours), or "" for none. */
  value: string;
  /** Called with the new `HH:MM`, or "" when the field is emptied or left incomplete. */
  onChange: (value: string) => void;
  onBlur?: () => void;
  id?: string;
  name?: string;
  disabled?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
};

function initialState(value: string, layout: TimeLayout): TimeFieldState {
  return { segments: segmentsOf(value, layout), active: layout.segments[0] ?? "hour", typed: "" };
}

/** The segment holding offset `caret` of the shown text (the nearest one when the caret is on a separator). */
function segmentAt(caret: number, ranges: Record<TimeSegment, [number, number]>, layout: TimeLayout): TimeSegment {
  let best: TimeSegment = layout.segments[0] ?? "hour";
  let distance = Infinity;
  for (const segment of layout.segments) {
    const [start, end] = ranges[segment];
    const away = caret < start ? start - caret : caret > end ? caret - end : 0;
    if (away < distance) [best, distance] = [segment, away];
  }
  return best;
}

/** A time of day in the app's language; see the file header. */
export function TimeField({ value, onChange, onBlur, className, ref, ...props }: TimeFieldProps) {
  const { i18n } = useLingui();
  const layout = timeLayout(i18n.locale);
  const [state, setState] = useState(() => initialState(value, layout));
  // The value and layout the state was last built from or reported: a new value from the form (a
  // reset, another field) or a language switch rebuilds it; the echo of our own onChange does not.
  const [synced, setSynced] = useState({ value, layout });
  if (synced.value !== value || synced.layout !== layout) {
    setSynced({ value, layout });
    setState(initialState(value, layout));
  }
  const input = useRef<HTMLInputElement | null>(null);
  const display = displayOf(state, layout);

  // Keeps the segment with the caret selected while the field has focus, as the native field does.
  useLayoutEffect(() => {
    const element = input.current;
    if (!element || element.ownerDocument.activeElement !== element) return;
    const [start, end] = display.text ? display.ranges[state.active] : [0, 0];
    element.setSelectionRange(start, end);
  }, [display.text, display.ranges, state.active]);

  const apply = (next: TimeFieldState) => {
    setState(next);
    const nextValue = valueOf(next.segments, layout);
    if (nextValue !== value) {
      setSynced({ value: nextValue, layout });
      onChange(nextValue);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const next = timeFieldKey(state, event.key, layout);
    if (!next) return;
    event.preventDefault();
    apply(next);
  };

  // Keyboards that send no key codes (Android, IMEs) still insert text: each inserted character is
  // taken as a key press, and a deletion as Backspace; the shown text is always rebuilt from the state.
  const onInput = (event: FormEvent<HTMLInputElement>) => {
    const native = event.nativeEvent;
    const inserted = native instanceof InputEvent ? native.data : null;
    const deleting = native instanceof InputEvent && native.inputType.startsWith("delete");
    let next: TimeFieldState | null = state;
    if (deleting) next = timeFieldKey(state, "Backspace", layout);
    else for (const key of inserted ?? "") next = next ? (timeFieldKey(next, key, layout) ?? next) : next;
    apply(next ?? state);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = parseTimeOfDay(event.clipboardData.getData("text"), layout);
    if (pasted) apply({ ...state, segments: segmentsOf(pasted, layout), typed: "" });
  };

  const pick = () => {
    const element = input.current;
    if (!element) return;
    const active = segmentAt(element.selectionStart ?? 0, display.ranges, layout);
    const [start, end] = display.text ? display.ranges[active] : [0, 0];
    element.setSelectionRange(start, end);
    if (active !== state.active || state.typed) setState({ ...state, active, typed: "" });
  };

  return (
    <Input
      {...props}
      ref={(element) => {
        input.current = element;
        if (typeof ref === "function") ref(element);
        else if (ref) ref.current = element;
      }}
      type="text"
      inputMode={layout.hour12 ? "text" : "numeric"}
      autoComplete="off"
      spellCheck={false}
      value={display.text}
      placeholder={placeholderOf(layout)}
      data-value={value}
      data-time-field=""
      className={cn("w-28 tabular-nums", className)}
      onKeyDown={onKeyDown}
      onChange={onInput}
      onPaste={onPaste}
      onMouseUp={pick}
      onFocus={pick}
      onBlur={() => {
        // A form that kept its value when the field went incomplete gets it shown back on leaving.
        if (valueOf(state.segments, layout) !== value) setState(initialState(value, layout));
        else if (state.typed) setState({ ...state, typed: "" });
        onBlur?.();
      }}
    />
  );
}
