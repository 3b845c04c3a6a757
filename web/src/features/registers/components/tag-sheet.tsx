import { useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Check } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { applyServerErrors } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import type { TagAnswer } from "../../../../../schema/api-types";
import { tagInput } from "../../../../../schema/validation/contacts";
import { useSaveTag } from "../hooks/use-registers";
import { DEFAULT_TAG_COLOR, normalizeHexColor, readableTextColor, TAG_PALETTE } from "../lib/tag-colors";
import type { TagFields } from "../api/registers-api";

/** What the sheet shows: a new tag or an existing one. */
export type TagSheetTarget = { kind: "new" } | { kind: "edit"; tag: TagAnswer };

/** The colour picker: a small palette (radio group) and a hex input. */
function ColorPicker({ value, onChange, error }: { value: string; onChange: (color: string) => void; error?: string }) {
  const { t } = useLingui();
  const [text, setText] = useState(value);
  return (
    <div className="grid gap-2">
      <div role="radiogroup" aria-label={t`Palette`} className="flex flex-wrap gap-2">
        {TAG_PALETTE.map((color) => {
          const selected = value === color;
          return (
            <button
              key={color}
              type="button"
              role="radio"
              aria-checked={selected}
              aria-label={color}
              onClick={() => {
                onChange(color);
                setText(color);
              }}
              className={cn(
                "flex size-8 items-center justify-center rounded-full border outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background",
                selected && "ring-2 ring-foreground ring-offset-2 ring-offset-background",
              )}
              style={{ backgroundColor: color, color: readableTextColor(color) }}
            >
              {selected ? <Check className="size-4" aria-hidden /> : null}
            </button>
          );
        })}
      </div>
      <FormField label={t`Hex colour`} error={error}>
        <Input
          className="w-36 font-mono"
          maxLength={7}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            const color = normalizeHexColor(event.target.value);
            onChange(color ?? event.target.value);
          }}
        />
      </FormField>
    </div>
  );
}

function TagForm({ target, onDone }: { target: TagSheetTarget; onDone: () => void }) {
  const { t } = useLingui();
  const save = useSaveTag();
  const tag = target.kind === "edit" ? target.tag : null;
  const form = useForm<TagFields>({
    resolver: zodResolver(tagInput),
    defaultValues: { name: tag?.name ?? "", color: tag?.color ?? DEFAULT_TAG_COLOR },
  });
  const { errors } = form.formState;
  const [name, color] = useWatch({ control: form.control, name: ["name", "color"] });
  const preview = normalizeHexColor(color) ?? "#64748b";

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: tag?.id ?? null, input: values });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "color"]);
    }
  });

  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={tag ? t`Save changes` : t`Create tag`}>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus {...form.register("name")} />
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{t`Colour`}</legend>
        <Controller control={form.control} name="color" render={({ field }) => <ColorPicker value={field.value} onChange={field.onChange} error={errors.color?.message} />} />
      </fieldset>
      <div className="grid gap-1.5">
        <p className="text-xs text-muted-foreground">{t`Preview`}</p>
        <span className="inline-flex w-fit items-center rounded-full px-2.5 py-0.5 text-xs font-medium" style={{ backgroundColor: preview, color: readableTextColor(preview) }}>
          {name.trim() || t`Tag`}
        </span>
      </div>
    </FormSheetForm>
  );
}

/**
 * The tag slide-over (spec §3 Tag): name and colour (palette or hex). A name already used (any
 * case) answers 409 `name_in_use`, shown under the name.
 */
export function TagSheet({ target, onClose }: { target: TagSheetTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const tag = target?.kind === "edit" ? target.tag : null;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={tag ? t`Edit tag` : t`New tag`} description={t`Tags group contacts for filters, broadcasts and flows.`} className="max-w-md">
      {target ? <TagForm key={tag?.id ?? "new"} target={target} onDone={onClose} /> : null}
    </FormSheet>
  );
}
