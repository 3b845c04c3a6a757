/**
 * A secret shown once, right after it was created (an API key, an event subscription's signing
 * secret): the warning, the value in a read-only field, a copy button (the spec's 'Copied to
 * clipboard.' toast) and "I have copied it", which hides it for good.
 */
import { useLingui } from "@lingui/react/macro";
import { Copy, TriangleAlert } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { notifyError, notifySuccess } from "@/lib/notify";

/** Copies `text` to the clipboard with the spec's 'Copied to clipboard.' toast (an error toast when refused). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess("copied");
  } catch (error) {
    notifyError(error);
  }
}

/**
 * `notice`: the translated warning; `label`: the field's accessible name; `copyLabel`: the copy
 * button's text; `onDone`: called by "I have copied it".
 */
export function SecretShownOnce({ value, notice, label, copyLabel, onDone }: { value: string; notice: string; label: string; copyLabel: string; onDone: () => void }) {
  const { t } = useLingui();
  return (
    <Alert variant="warning" className="flex-col gap-3">
      <div className="flex items-start gap-3">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p className="font-medium">{notice}</p>
      </div>
      <div className="flex w-full flex-col gap-2 sm:flex-row">
        <Input readOnly value={value} aria-label={label} className="bg-background font-mono text-xs text-foreground" onFocus={(event) => event.currentTarget.select()} />
        <Button onClick={() => void copyText(value)}>
          <Copy />
          {copyLabel}
        </Button>
      </div>
      <Button variant="outline" size="sm" className="self-start" onClick={onDone}>
        {t`I have copied it`}
      </Button>
    </Alert>
  );
}
