/**
 * The dashboard's date range picker: a button showing the range, opening a two-month calendar
 * (react-day-picker, range mode, in the app's language through its date-fns locales) with presets
 * (7, 30, 90 days). Future days are disabled and a range spans at most 366 days (the API's limit).
 * Colours come from the theme's CSS variables, so it follows light and dark.
 */
import { useState } from "react";
import { DayPicker, type DateRange } from "react-day-picker";
import "react-day-picker/style.css";
import { useLingui } from "@lingui/react/macro";
import { CalendarDays } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CALENDAR_THEME } from "@/components/ui/date-picker";
import { calendarLocale } from "@/lib/calendar";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { MAX_DASHBOARD_DAYS } from "../../../../../schema/validation/dashboard";
import { fromIsoDate, isoDate, lastDays, shortDate } from "../lib/dashboard-format";


export type Range = { from: string; to: string };

/** The range button and its calendar; `onChange` gets complete ranges only. */
export function DateRangePicker({ value, onChange }: { value: Range; onChange: (next: Range) => void }) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DateRange | undefined>();
  const today = new Date();
  const selected: DateRange = draft ?? { from: fromIsoDate(value.from), to: fromIsoDate(value.to) };
  const label = value.from === value.to ? shortDate(value.from, i18n.locale) : `${shortDate(value.from, i18n.locale)} – ${shortDate(value.to, i18n.locale)}`;

  const apply = (range: Range) => {
    onChange(range);
    setDraft(undefined);
    setOpen(false);
  };

  const presets: { days: number; label: string }[] = [
    { days: 7, label: t`Last 7 days` },
    { days: 30, label: t`Last 30 days` },
    { days: 90, label: t`Last 90 days` },
  ];

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setDraft(undefined);
      }}
    >
      <PopoverTrigger asChild>
        <Button variant="outline" className="justify-start font-normal" aria-label={t`Period: ${label}`} data-testid="dashboard-range">
          <CalendarDays className="text-muted-foreground" />
          {label}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-auto max-w-[calc(100vw-1rem)] p-3" align="end">
        <div className="mb-2 flex flex-wrap gap-1">
          {presets.map((preset) => (
            <Button key={preset.days} variant="ghost" size="sm" onClick={() => apply(lastDays(today, preset.days))}>
              {preset.label}
            </Button>
          ))}
        </div>
        <div>
          <DayPicker
            mode="range"
            /* On the picker's root: its stylesheet sets the defaults there, so inherited values would lose. */
            style={CALENDAR_THEME}
            locale={calendarLocale(i18n.locale)}
            numberOfMonths={2}
            defaultMonth={new Date(selected.to?.getFullYear() ?? today.getFullYear(), (selected.to?.getMonth() ?? today.getMonth()) - 1, 1)}
            selected={selected}
            max={MAX_DASHBOARD_DAYS - 1}
            disabled={{ after: today }}
            onSelect={(range, day) => {
              // A new click after a complete range starts a new one at that day.
              if (draft === undefined) {
                setDraft({ from: day, to: undefined });
                return;
              }
              setDraft(range);
              if (range?.from && range.to) apply({ from: isoDate(range.from), to: isoDate(range.to) });
            }}
          />
        </div>
        <p className="mt-1 text-xs text-muted-foreground">{t`Dates in the company's time zone.`}</p>
      </PopoverContent>
    </Popover>
  );
}
