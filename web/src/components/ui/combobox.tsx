import { useEffect, useId, useMemo, useState, type ComponentProps, type KeyboardEvent } from "react";
import { Check, ChevronsUpDown } from "lucide-react";
import { Popover, PopoverContent, PopoverTrigger } from "./popover";
import { cn } from "@/lib/utils";

/** One choice of a {@link Combobox}: the stored `value`, the shown `label`, optional muted `hint`. */
export type ComboboxOption = { value: string; label: string; hint?: string };

/** Lower-cases, strips accents and treats `_`, `/` and `-` as spaces, for forgiving search. */
function normalise(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[_/-]+/g, " ");
}

/**
 * The options whose label, value or hint contain every word of `query` (case, accents and
 * `_`/`/`/`-` ignored), in their original order; all options for a blank query.
 */
export function filterOptions<T extends ComboboxOption>(options: readonly T[], query: string): T[] {
  const words = normalise(query).split(/\s+/).filter(Boolean);
  if (!words.length) return [...options];
  return options.filter((option) => {
    const haystack = normalise(`${option.label} ${option.value} ${option.hint ?? ""}`);
    return words.every((word) => haystack.includes(word));
  });
}

type ComboboxProps = Omit<ComponentProps<"button">, "value" | "onChange" | "children"> & {
  options: readonly ComboboxOption[];
  value: string;
  onValueChange: (value: string) => void;
  /** Shown on the button when no option is chosen. */
  placeholder: string;
  /** Accessible label (and placeholder) of the search box. */
  searchLabel: string;
  /** Shown when the search matches nothing. */
  emptyText: string;
};

/**
 * A searchable single-choice select (WAI-ARIA combobox pattern over a Radix Popover): the button
 * opens a search box; typing filters, ↑/↓ move, Enter picks, Escape closes. Button props (`id`,
 * `aria-invalid`, `aria-describedby` from FormField) go to the trigger.
 */
export function Combobox({ options, value, onValueChange, placeholder, searchLabel, emptyText, className, ...buttonProps }: ComboboxProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const filtered = useMemo(() => filterOptions(options, query), [options, query]);
  const selected = options.find((option) => option.value === value);
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (!open) return;
    document.getElementById(`${listId}-option-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, open, listId]);

  const openChange = (next: boolean) => {
    setOpen(next);
    setQuery("");
    if (next) setActive(Math.max(0, options.findIndex((option) => option.value === value)));
  };

  const pick = (option: ComboboxOption | undefined) => {
    if (!option) return;
    onValueChange(option.value);
    openChange(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = filtered.length - 1;
    if (event.key === "ArrowDown") setActive((index) => Math.min(last, index + 1));
    else if (event.key === "ArrowUp") setActive((index) => Math.max(0, index - 1));
    else if (event.key === "Home") setActive(0);
    else if (event.key === "End") setActive(Math.max(0, last));
    else if (event.key === "PageDown") setActive((index) => Math.min(last, index + 8));
    else if (event.key === "PageUp") setActive((index) => Math.max(0, index - 8));
    else if (event.key === "Enter") pick(filtered[active]);
    else return;
    event.preventDefault();
  };

  return (
    <Popover open={open} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <button
          type="button"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-haspopup="listbox"
          className={cn(
            "flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-background px-3 py-1 text-left text-sm shadow-xs outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring/60 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive",
            className,
          )}
          {...buttonProps}
        >
          <span className={cn("truncate", !selected && "text-muted-foreground")}>{selected?.label ?? (value || placeholder)}</span>
          <ChevronsUpDown className="size-4 shrink-0 opacity-60" aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-[var(--radix-popover-trigger-width)] min-w-64 p-0">
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
        <ul id={listId} role="listbox" aria-label={searchLabel} className="max-h-64 overflow-y-auto p-1">
          {filtered.length === 0 ? (
            <li className="px-2 py-6 text-center text-sm text-muted-foreground">{emptyText}</li>
          ) : (
            filtered.map((option, index) => (
              <li
                key={option.value}
                id={optionId(index)}
                role="option"
                aria-selected={option.value === value}
                data-active={index === active ? "" : undefined}
                onMouseMove={() => setActive(index)}
                onClick={() => pick(option)}
                className="relative flex cursor-default items-center gap-2 rounded-sm py-1.5 pr-2 pl-8 text-sm select-none data-[active]:bg-accent data-[active]:text-accent-foreground"
              >
                {option.value === value ? <Check className="absolute left-2 size-4" aria-hidden /> : null}
                <span className="truncate">{option.label}</span>
                {option.hint ? <span className="ml-auto shrink-0 text-xs text-muted-foreground">{option.hint}</span> : null}
              </li>
            ))
          )}
        </ul>
      </PopoverContent>
    </Popover>
  );
}

/**
 * The search box at the top of a combobox's popover (also the multi-select's): focused on open,
 * it drives the listbox `listId` with `aria-activedescendant` pointing at the highlighted option.
 */
export function ComboboxSearch({
  label,
  listId,
  activeId,
  value,
  onValueChange,
  onKeyDown,
}: {
  label: string;
  listId: string;
  activeId: string | undefined;
  value: string;
  onValueChange: (value: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <input
      autoFocus
      type="text"
      role="searchbox"
      aria-label={label}
      placeholder={label}
      aria-controls={listId}
      aria-activedescendant={activeId}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      onKeyDown={onKeyDown}
      className="h-10 w-full border-b bg-transparent px-3 text-sm outline-none placeholder:text-muted-foreground"
    />
  );
}
