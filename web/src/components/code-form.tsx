import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage } from "@/lib/error-messages";

// A 6-digit code, the rule the API checks (activation and e-mail verification share it).
import { activeCodeInput as codeInput } from "../../../schema/validation/company";

/**
 * State of a one-time-code form: `submit(code)` is the mutation; a field error from the API
 * (`fields.code`) lands on the input, any other error in `rootError` (already translated).
 */
export function useCodeForm(submit: (code: string) => Promise<unknown>) {
  const { i18n } = useLingui();
  const form = useForm({ resolver: zodResolver(codeInput), defaultValues: { code: "" } });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await submit(code);
    } catch (error) {
      const fieldCode = isApiError(error) ? error.fields.code : undefined;
      if (fieldCode) form.setError("code", { type: "server", message: fieldCode });
      else form.setError("root", { type: "server", message: i18n._(errorMessage(error)) });
    }
  });
  return { form, onSubmit, rootError: form.formState.errors.root?.message };
}

/**
 * The 6-digit code input and its submit button (activation and e-mail verification notices).
 * `label` is read by screen readers only; `pending` shows a spinner and disables the button.
 */
export function CodeForm({
  state,
  label,
  submitLabel,
  pending,
}: {
  state: ReturnType<typeof useCodeForm>;
  label: ReactNode;
  submitLabel: ReactNode;
  pending: boolean;
}) {
  const { form, onSubmit } = state;
  return (
    <form onSubmit={onSubmit} className="flex items-start gap-2" noValidate>
      <FormField label={<span className="sr-only">{label}</span>} error={form.formState.errors.code?.message} className="gap-1">
        <Input
          {...form.register("code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="000000"
          className="w-28 bg-background text-foreground tracking-widest"
        />
      </FormField>
      <Button type="submit" disabled={pending}>
        {pending ? <Spinner /> : null}
        {submitLabel}
      </Button>
    </form>
  );
}
