import { Link } from "react-router";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { startSession } from "@/lib/session";
import { loginInput } from "../../../../../schema/validation/auth";
import { login } from "../api/auth-api";
import { useServerErrors } from "../hooks/use-server-errors";
import { AuthCard } from "./auth-card";

/** /login (spec §2 auth screens, §4 "login ... stores the token and loads the user"). */
export function LoginPage() {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(loginInput), defaultValues: { email: "", password: "" } });
  const applyErrors = useServerErrors(form, ["email", "password"], "login");
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { token } = await login(values);
      startSession(token);
    } catch (error) {
      applyErrors(error);
    }
  });
  return (
    <AuthCard
      title={t`Log in`}
      description={t`Welcome back! Enter your email and password.`}
      error={errors.root?.server?.message}
      footer={
        <p>
          {t`Don't have an account?`}{" "}
          <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
            {t`Create an account`}
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label={t`Email`} error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus {...form.register("email")} />
        </FormField>
        <FormField label={t`Password`} error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...form.register("password")} />
        </FormField>
        <div className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="text-primary underline-offset-4 hover:underline">
            {t`Forgot your password?`}
          </Link>
        </div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : null}
          {t`Log in`}
        </Button>
      </form>
    </AuthCard>
  );
}
