import { useEffect, useId, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { ImageUp, Trash2 } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { fieldErrorMessage } from "@/lib/error-messages";
import { cn } from "@/lib/utils";
import { IMAGE_TYPES, imageFileProblem, type ImageChange } from "../lib/form-fields";

/**
 * An avatar / logo chooser: the current picture (or initials of `name`), "Choose image" opening
 * the file dialog (PNG, JPEG, WebP or GIF up to 2 MB, checked before upload) and, when
 * `removable`, "Remove". `change` says what saving will do; `error` is a field code from the
 * server (`invalid_image`, `image_too_large`).
 */
export function ImagePicker({
  label,
  name,
  current,
  change,
  onChange,
  removable = false,
  error,
  disabled = false,
}: {
  label: string;
  name: string;
  current: string | null;
  change: ImageChange;
  onChange: (change: ImageChange) => void;
  removable?: boolean;
  error?: string;
  disabled?: boolean;
}) {
  const { t, i18n } = useLingui();
  const inputRef = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const id = useId();
  const file = change.kind === "set" ? change.file : null;
  const fileName = file?.name ?? "";

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const shown = change.kind === "remove" ? null : (preview ?? current);
  const problem = localError ?? error;

  return (
    <div className="flex flex-wrap items-center gap-4" role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`}>
      <Avatar name={name} src={shown} className="size-16 text-base" />
      <div className="grid gap-2">
        <span id={`${id}-label`} className="text-sm leading-none font-medium">
          {label}
        </span>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => inputRef.current?.click()}>
            <ImageUp />
            {t`Choose image`}
          </Button>
          {removable && (shown || change.kind === "set") ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={disabled}
              onClick={() => {
                setLocalError(null);
                onChange(current ? { kind: "remove" } : { kind: "keep" });
              }}
            >
              <Trash2 />
              {t`Remove`}
            </Button>
          ) : null}
          {change.kind !== "keep" ? (
            <Button type="button" variant="ghost" size="sm" disabled={disabled} onClick={() => onChange({ kind: "keep" })}>
              {t`Undo`}
            </Button>
          ) : null}
        </div>
        <p id={`${id}-hint`} className={cn("text-xs", problem ? "font-medium text-destructive" : "text-muted-foreground")} aria-live="polite">
          {problem
            ? i18n._(fieldErrorMessage(problem))
            : change.kind === "set"
              ? t`New image chosen: ${fileName}. Save to apply.`
              : change.kind === "remove"
                ? t`The image will be removed when you save.`
                : t`PNG, JPEG, WebP or GIF, up to 2 MB.`}
        </p>
        <input
          ref={inputRef}
          type="file"
          accept={IMAGE_TYPES.join(",")}
          className="hidden"
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            event.target.value = "";
            if (!chosen) return;
            const fileProblem = imageFileProblem(chosen);
            setLocalError(fileProblem);
            if (!fileProblem) onChange({ kind: "set", file: chosen });
          }}
        />
      </div>
    </div>
  );
}
