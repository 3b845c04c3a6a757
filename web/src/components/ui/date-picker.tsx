/**
 * A date field in the app's language (issue 9): a button showing the chosen day the language's way,
 * opening a calendar (react-day-picker with the language's month names and first weekday). The
 * browser's own `<input type="date">` follows the operating system's language instead, so a pt-BR
 * user on an English system would read "mm/dd/yyyy". Values are `YYYY-MM-DD` strings ("" for none).
 * `DateTimeField` pairs it with a {@link TimeField} (the time of day the language's way, 19:30 or
 * 7:30 PM) for `YYYY-MM-DDTHH:MM` values.
 */
import { useState, type CSSProperties } from "react";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import { useLingui } from "@lingui/react/macro";
import { CalendarDays, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { TimeField } from "@/components/ui/time-field";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { calendarLocale, dateToDay, dayToDate, formatDay } from "@/lib/calendar";
import { cn } from "@/lib/utils";

/** The theme's colours for react-day-picker's CSS variables (light and dark follow the theme). */
export const CALENDAR_THEME = {
  "--rdp-accent-color": "var(--primary)",
  "--rdp-accent-background-color": "var(--accent)",
  "--rdp-range_middle-background-color": "var(--accent)",
  "--rdp-range_middle-color": "var(--accent-foreground)",
  "--rdp-range_start-color": "var(--primary-foreground)",
  "--rdp-range_end-color": "var(--primary-foreground)",
  "--rdp-today-color": "var(--primary-text)",
  "--rdp-day-height": "2.25rem",
  "--rdp-day-width": "2.25rem",
  "--rdp-day_button-height": "2.1rem",
  "--rdp-day_button-width": "2.1rem",
} as CSSProperties;

type DatePickerProps = {
  /** `YYYY-MM-DD`, or "" for no date. */
  value: string;
  onChange: (day: string) => void;
  /** Days before this `YYYY-MM-DD` cannot be chosen. */
  min?: string;
  disabled?: boolean;
  /** Shows a button that clears the date. */
  clearable?: boolean;
  id?: string;
  className?: string;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
};

/** One day, chosen on a calendar in the app's language. */
export function DatePicker({ value, onChange, min, disabled, clearable, id, className, ...aria }: DatePickerProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const selected = dayToDate(value);
  const earliest = min ? dayToDate(min) : undefined;
  const shown = formatDay(value, i18n.locale);
  return (
    <div className={cn("flex items-center gap-1", className)}>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            id={id}
            type="button"
            variant="outline"
            disabled={disabled}
            className={cn("min-w-0 flex-1 justify-start font-normal", !shown && "text-muted-foreground")}
            aria-label={aria["aria-label"] ? `${aria["aria-label"]}: ${shown || t`Choose a date`}` : undefined}
            aria-invalid={aria["aria-invalid"]}
            data-value={value}
          >
            <CalendarDays className="text-muted-foreground" />
            <span className="truncate">{shown || t`Choose a date`}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-auto max-w-[calc(100vw-1rem)] p-3" align="start">
          <DayPicker
            mode="single"
            style={CALENDAR_THEME}
            locale={calendarLocale(i18n.locale)}
            selected={selected}
            defaultMonth={selected ?? earliest}
            disabled={earliest ? { before: earliest } : undefined}
            onSelect={(date) => {
              if (!date) return;
              onChange(dateToDay(date));
              setOpen(false);
            }}
          />
        </PopoverContent>
      </Popover>
      {clearable && value && !disabled ? (
        <Button type="button" variant="ghost" size="icon" aria-label={t`Clear the date`} onClick={() => onChange("")}>
          <X />
        </Button>
      ) : null}
    </div>
  );
}

/** A day and a time of day as one `YYYY-MM-DDTHH:MM` value ("" when no day is chosen). */
export function DateTimeField({
  value,
  onChange,
  disabled,
  "aria-label": label,
  "aria-invalid": invalid,
}: {
  value: string;
  onChange: (next: string) => void;
  disabled?: boolean;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
}) {
  const { t } = useLingui();
  const [day = "", time = ""] = value ? value.split("T") : [];
  return (
    <div className="flex gap-2">
      <DatePicker
        value={day}
        disabled={disabled}
        clearable
        aria-label={label}
        aria-invalid={invalid}
        className="flex-1"
        onChange={(next) => onChange(next ? `${next}T${time || "00:00"}` : "")}
      />
      <TimeField
        aria-label={t`Time`}
        aria-invalid={invalid}
        disabled={disabled || !day}
        value={time.slice(0, 5)}
        onChange={(next) => {
          // An incomplete time keeps the last complete one (shown again when the field is left).
          if (day && next) onChange(`${day}T${next}`);
        }}
      />
    </div>
  );
}
