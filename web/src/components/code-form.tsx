import { useLingui } from "@lingui/react/macro";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage } from "@/lib/error-messages";

// A 6-digit code, the rule the API checks (activation and e-mail verification share it).
import { activeCodeInput as codeInput } from "../../../schema/validation/company";

/** The field code of `value` under the API's rule (`required`, `invalid_code`), or undefined when valid. */
function codeError(value: string): string | undefined {
  const parsed = codeInput.safeParse({ code: value });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/**
 * State of a one-time-code form: `submit(code)` is the mutation, called with the trimmed code once
 * it passes the API's rule (schema/validation/company.ts `activeCodeInput`). A field error (the
 * rule's, or `fields.code` from the API) lands on the input, any other error in `rootError`
 * (already translated). A controlled form without react-hook-form: the shell shows it to every
 * unverified user, on every page (issue 9 "Load only what a screen needs"). Like a form library's
 * defaults, the field is checked on submit and, after the first submit, on every change.
 */
export function useCodeForm(submit: (code: string) => Promise<unknown>) {
  const { i18n } = useLingui();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [rootError, setRootError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const onChange = (next: string) => {
    setValue(next);
    if (submitted) setError(codeError(next));
  };
  const onSubmit = async (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    setRootError(undefined);
    const invalid = codeError(value);
    setError(invalid);
    if (invalid) {
      inputRef.current?.focus();
      return;
    }
    try {
      await submit(value.trim());
    } catch (caught) {
      const fieldCode = isApiError(caught) ? caught.fields.code : undefined;
      if (fieldCode) setError(fieldCode);
      else setRootError(i18n._(errorMessage(caught)));
    }
  };
  return { value, error, onChange, onSubmit, inputRef, rootError };
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
  return (
    <form onSubmit={(event) => void state.onSubmit(event)} className="flex items-start gap-2" noValidate>
      <FormField label={<span className="sr-only">{label}</span>} error={state.error} className="gap-1">
        <Input
          ref={state.inputRef}
          name="code"
          value={state.value}
          onChange={(event) => state.onChange(event.target.value)}
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
