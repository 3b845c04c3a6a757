import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { loadCatalogs } from "@/lib/i18n";
import { startSession } from "@/lib/session";
import { login } from "../api/auth-api";
import { checkLogin, type LoginErrors, type LoginValues } from "../lib/login-form";
import { AuthCard } from "./auth-card";

type ErrorTable = typeof import("@/lib/error-messages");
let errorTable: Promise<ErrorTable> | null = null;

/**
 * The error table (web/src/lib/error-messages.ts) with its catalog, loaded the first time the form
 * has an error to show: a visitor who logs in without one never downloads it (issue 9).
 */
function loadErrorTable(): Promise<ErrorTable> {
  errorTable ??= Promise.all([import("@/lib/error-messages"), loadCatalogs(["errors"])]).then(([table]) => table);
  return errorTable;
}

/** One labelled field with its error under it (the markup of FormField, components/ui/form-field.tsx). */
function LoginField({ label, error, children }: { label: string; error?: string; children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => React.ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? errorId : undefined })}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * /login (spec §2 auth screens, §4 "login ... stores the token and loads the user"). The first
 * screen a visitor downloads, so it is kept small (issue 9: /login ≤ 120 KiB gzip JS): a plain
 * controlled form checked by `checkLogin` (loginInput's rules, without zod or react-hook-form),
 * on submit and then on every change. A failed call puts the server's field codes under their
 * fields and the login wording on top (spec §8); the messages come from the app's error table,
 * loaded with the first error.
 */
export function LoginPage() {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState<LoginValues>({ email: "", password: "" });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [table, setTable] = useState<ErrorTable | null>(null);
  const [serverError, setServerError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  /** Shows `next` field errors once the table that words them is in. */
  const showErrors = async (next: LoginErrors) => {
    if (next.email || next.password) setTable(await loadErrorTable());
    setErrors(next);
  };

  const change = (field: keyof LoginValues) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (submitted) {
      const checked = checkLogin(next);
      void showErrors(checked.ok ? {} : checked.errors);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    const checked = checkLogin(values);
    if (!checked.ok) {
      await showErrors(checked.errors);
      return;
    }
    setErrors({});
    setServerError(undefined);
    setSubmitting(true);
    try {
      const { token } = await login(checked.data);
      startSession(token);
    } catch (error) {
      const loaded = await loadErrorTable();
      setTable(loaded);
      if (isApiError(error)) setErrors({ email: error.fields.email, password: error.fields.password });
      setServerError(i18n._(loaded.errorMessage(error, "login")));
    } finally {
      setSubmitting(false);
    }
  };

  const message = (code: string | undefined) => (code && table ? i18n._(table.fieldErrorMessage(code)) : undefined);

  return (
    <AuthCard
      title={t`Log in`}
      description={t`Welcome back! Enter your email and password.`}
      error={serverError}
      footer={
        <p>
          {t`Don't have an account?`}{" "}
          <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
            {t`Create an account`}
          </Link>
        </p>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} className="grid gap-4" noValidate>
        <LoginField label={t`Email`} error={message(errors.email)}>
          {(field) => <Input {...field} type="email" name="email" autoComplete="email" autoFocus value={values.email} onChange={change("email")} />}
        </LoginField>
        <LoginField label={t`Password`} error={message(errors.password)}>
          {(field) => <Input {...field} type="password" name="password" autoComplete="current-password" value={values.password} onChange={change("password")} />}
        </LoginField>
        <div className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="text-primary underline-offset-4 hover:underline">
            {t`Forgot your password?`}
          </Link>
        </div>
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner /> : null}
          {t`Log in`}
        </Button>
      </form>
    </AuthCard>
  );
}
