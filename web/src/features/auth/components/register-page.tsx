import { Link } from "react-router";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { startSession } from "@/lib/session";
import { registerInput } from "../../../../../schema/validation/register";
import { register } from "../api/auth-api";
import { useServerErrors } from "../hooks/use-server-errors";
import { AuthCard } from "./auth-card";

/** /register: name, email, phone, password and company name (spec §2, §5 validation). */
export function RegisterPage() {
  const { t } = useLingui();
  const form = useForm({
    resolver: zodResolver(registerInput),
    defaultValues: { name: "", email: "", phone: "", password: "", companyName: "" },
  });
  const applyErrors = useServerErrors(form, ["name", "email", "phone", "password", "companyName"], "register");
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { token } = await register(values);
      startSession(token);
    } catch (error) {
      applyErrors(error);
    }
  });
  return (
    <AuthCard
      title={t`Create your account`}
      description={t`Start talking to your customers in minutes.`}
      error={errors.root?.server?.message}
      footer={
        <p>
          {t`Already have an account?`}{" "}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            {t`Log in`}
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label={t`Your name`} error={errors.name?.message}>
          <Input autoComplete="name" autoFocus {...form.register("name")} />
        </FormField>
        <FormField label={t`Email`} error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register("email")} />
        </FormField>
        <FormField label={t`Phone`} error={errors.phone?.message} hint={t`With area code, e.g. +55 11 91234-5678.`}>
          <Input type="tel" autoComplete="tel" {...form.register("phone")} />
        </FormField>
        <FormField label={t`Password`} error={errors.password?.message} hint={t`At least 8 characters.`}>
          <Input type="password" autoComplete="new-password" {...form.register("password")} />
        </FormField>
        <FormField label={t`Company name`} error={errors.companyName?.message}>
          <Input autoComplete="organization" {...form.register("companyName")} />
        </FormField>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : null}
          {t`Create account`}
        </Button>
      </form>
    </AuthCard>
  );
}
