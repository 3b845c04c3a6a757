import { useId, useMemo, useState, type ComponentProps, type KeyboardEvent, type ReactNode } from "react";
import { Check, ChevronsUpDown } from "lucide-react";
import { ComboboxSearch, filterOptions } from "./combobox";
import { Popover, PopoverContent, PopoverTrigger } from "./popover";
import { cn } from "@/lib/utils";

/** One choice of a {@link MultiSelect}; `color` draws a dot before the label (tags). */
export type MultiSelectOption = { value: string; label: string; color?: string };

type MultiSelectProps = Omit<ComponentProps<"button">, "value" | "onChange" | "children"> & {
  options: readonly MultiSelectOption[];
  value: readonly string[];
  onValueChange: (value: string[]) => void;
  /** Shown on the button when nothing is chosen. */
  placeholder: string;
  /** Accessible label (and placeholder) of the search box. */
  searchLabel: string;
  /** Shown when the search matches nothing. */
  emptyText: string;
  /** What the button shows for the chosen options (default: their labels, comma separated). */
  renderValue?: (chosen: MultiSelectOption[]) => ReactNode;
};

/**
 * A searchable multiple-choice select: the button opens a search box over a listbox
 * (`aria-multiselectable`); typing filters, ↑/↓ move, Enter or Space toggles, Escape closes.
 * Button props (`id`, `aria-label`, `aria-invalid` from FormField) go to the trigger.
 */
export function MultiSelect({ options, value, onValueChange, placeholder, searchLabel, emptyText, renderValue, className, ...buttonProps }: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const filtered = useMemo(() => filterOptions(options, query), [options, query]);
  const chosen = options.filter((option) => value.includes(option.value));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const toggle = (option: MultiSelectOption | undefined) => {
    if (!option) return;
    onValueChange(value.includes(option.value) ? value.filter((v) => v !== option.value) : [...value, option.value]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = filtered.length - 1;
    if (event.key === "ArrowDown") setActive((index) => Math.min(last, index + 1));
    else if (event.key === "ArrowUp") setActive((index) => Math.max(0, index - 1));
    else if (event.key === "Enter") toggle(filtered[active]);
    else if (event.key === " " && !query) toggle(filtered[active]);
    else return;
    event.preventDefault();
  };

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setQuery("");
        setActive(0);
      }}
    >
      <PopoverTrigger asChild>
        <button
          type="button"
          aria-haspopup="listbox"
          aria-expanded={open}
          className={cn(
            "flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-background px-3 py-1 text-left text-sm shadow-xs outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring/60 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive",
            className,
          )}
          {...buttonProps}
        >
          <span className={cn("min-w-0 truncate", !chosen.length && "text-muted-foreground")}>
            {chosen.length ? (renderValue ? renderValue(chosen) : chosen.map((option) => option.label).join(", ")) : placeholder}
          </span>
          <ChevronsUpDown className="size-4 shrink-0 opacity-60" aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-[var(--radix-popover-trigger-width)] min-w-60 p-0">
        <ComboboxSearch
          label={searchLabel}
          listId={listId}
          activeId={filtered.length ? optionId(active) : undefined}
          value={query}
          onValueChange={(next) => {
            setQuery(next);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-multiselectable="true" aria-label={searchLabel} className="max-h-64 overflow-y-auto p-1">
          {filtered.length === 0 ? (
            <li className="px-2 py-6 text-center text-sm text-muted-foreground">{emptyText}</li>
          ) : (
            filtered.map((option, index) => {
              const selected = value.includes(option.value);
              return (
                <li
                  key={option.value}
                  id={optionId(index)}
                  role="option"
                  aria-selected={selected}
                  data-active={index === active ? "" : undefined}
                  onMouseMove={() => setActive(index)}
                  onClick={() => toggle(option)}
                  className="relative flex cursor-default items-center gap-2 rounded-sm py-1.5 pr-2 pl-8 text-sm select-none data-[active]:bg-accent data-[active]:text-accent-foreground"
                >
                  {selected ? <Check className="absolute left-2 size-4" aria-hidden /> : null}
                  {option.color ? <span className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: option.color }} aria-hidden /> : null}
                  <span className="truncate">{option.label}</span>
                </li>
              );
            })
          )}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
