import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Check } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { applyServerErrors } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import type { CrmColumnAnswer } from "../../../../../schema/api-types";
import { useSaveColumn } from "../hooks/use-crm-board";
import { COLUMN_COLORS, DEFAULT_COLUMN_COLOR, columnForm, type ColumnFormValues } from "../lib/column-form";

/** What the dialog edits: a new column, or an existing one. */
export type ColumnDialogTarget = { kind: "new" } | { kind: "edit"; column: CrmColumnAnswer };

function ColorSwatches({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  const { t, i18n } = useLingui();
  const options = COLUMN_COLORS.some((color) => color.value === value.toLowerCase())
    ? COLUMN_COLORS.map((color) => ({ value: color.value, label: i18n._(color.label) }))
    : [...COLUMN_COLORS.map((color) => ({ value: color.value, label: i18n._(color.label) })), { value, label: t`Current colour` }];
  return (
    <div role="radiogroup" aria-label={t`Colour`} className="flex flex-wrap gap-2">
      {options.map((option) => {
        const checked = option.value.toLowerCase() === value.toLowerCase();
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={option.label}
            title={option.label}
            onClick={() => onChange(option.value)}
            onKeyDown={(event) => {
              const index = options.findIndex((o) => o.value === option.value);
              const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
              if (!step) return;
              event.preventDefault();
              const next = options[(index + step + options.length) % options.length];
              if (!next) return;
              onChange(next.value);
              const group = event.currentTarget.parentElement;
              requestAnimationFrame(() => group?.querySelector<HTMLButtonElement>(`[data-color="${next.value}"]`)?.focus());
            }}
            tabIndex={checked ? 0 : -1}
            data-color={option.value}
            className={cn(
              "flex size-8 items-center justify-center rounded-full border-2 border-transparent text-white outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background",
              checked && "border-foreground",
            )}
            style={{ backgroundColor: option.value }}
          >
            {checked ? <Check className="size-4 drop-shadow" aria-hidden /> : null}
          </button>
        );
      })}
    </div>
  );
}

function ColumnForm({ target, onDone }: { target: ColumnDialogTarget; onDone: () => void }) {
  const { t } = useLingui();
  const save = useSaveColumn();
  const column = target.kind === "edit" ? target.column : null;
  const form = useForm<ColumnFormValues>({
    resolver: zodResolver(columnForm),
    defaultValues: { name: column?.name ?? "", color: column?.color ?? DEFAULT_COLUMN_COLOR },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: column?.id ?? null, input: { name: values.name, color: values.color.toLowerCase() } });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "color"]);
    }
  });

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <FormField label={t`Column name`} error={errors.name?.message}>
        <Input autoFocus placeholder={t`e.g. Negotiating`} {...form.register("name")} />
      </FormField>
      <div className="grid gap-1.5">
        <span className="text-sm font-medium">{t`Colour`}</span>
        <Controller control={form.control} name="color" render={({ field }) => <ColorSwatches value={field.value} onChange={field.onChange} />} />
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={save.isPending}>
            {t`Cancel`}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {column ? t`Save changes` : t`Create column`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Creates a column or renames / recolours one (crm_manager). */
export function ColumnDialog({ target, onClose }: { target: ColumnDialogTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const editing = target?.kind === "edit" ? target.column : null;
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? t`Edit column` : t`New column`}</DialogTitle>
          <DialogDescription>{t`Columns are the stages contacts move through on the board.`}</DialogDescription>
        </DialogHeader>
        {target ? <ColumnForm key={editing?.id ?? "new"} target={target} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
