import { useState, type KeyboardEvent } from "react";
import { X } from "lucide-react";
import { cn } from "@/lib/utils";

/**
 * A list of short values typed one by one: Enter or comma adds the text as a chip (trimmed, no
 * duplicates), Backspace in the empty box removes the last chip, each chip has a remove button.
 * `id`/`aria-*` (from FormField) go to the text box; `removeLabel` names each chip's button.
 */
export function ChipsInput({
  value,
  onValueChange,
  placeholder,
  removeLabel,
  maxLength,
  className,
  ...inputProps
}: {
  value: readonly string[];
  onValueChange: (value: string[]) => void;
  placeholder?: string;
  removeLabel: (chip: string) => string;
  maxLength?: number;
  className?: string;
  id?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  "aria-label"?: string;
}) {
  const [text, setText] = useState("");
  const add = () => {
    const chip = text.trim();
    if (chip && !value.includes(chip)) onValueChange([...value, chip]);
    setText("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add();
    } else if (event.key === "Backspace" && text === "" && value.length) {
      onValueChange(value.slice(0, -1));
    }
  };
  return (
    <div
      className={cn(
        "flex min-h-9 w-full flex-wrap items-center gap-1 rounded-md border border-input bg-background px-2 py-1 text-sm shadow-xs focus-within:ring-2 focus-within:ring-ring/60 has-aria-invalid:border-destructive",
        className,
      )}
    >
      {value.map((chip) => (
        <span key={chip} className="inline-flex items-center gap-1 rounded bg-muted px-1.5 py-0.5 text-xs">
          {chip}
          <button type="button" className="rounded text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring" aria-label={removeLabel(chip)} onClick={() => onValueChange(value.filter((item) => item !== chip))}>
            <X className="size-3" aria-hidden />
          </button>
        </span>
      ))}
      <input
        {...inputProps}
        value={text}
        maxLength={maxLength}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
        placeholder={value.length ? undefined : placeholder}
        className="min-w-24 flex-1 bg-transparent py-0.5 outline-none"
      />
    </div>
  );
}
