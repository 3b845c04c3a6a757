import { useState } from "react";
import { Link } from "react-router";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { twMerge } from "tailwind-merge";
import { MailCheck } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { setClassMerge } from "@/lib/utils";
import { notifySuccess } from "@/lib/notify";
import { forgotPasswordInput } from "../../../../../schema/validation/auth";
import { forgotPassword } from "../api/auth-api";
import { useServerErrors } from "../hooks/use-server-errors";
import { AuthCard } from "./auth-card";

// This page's empty state overrides its padding, which needs tailwind-merge (not loaded by /login).
setClassMerge(twMerge);

/** /forgot-password: asks for the e-mail and confirms that instructions were sent (spec §7, §8). */
export function ForgotPasswordPage() {
  const { t } = useLingui();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(forgotPasswordInput), defaultValues: { email: "" } });
  const applyErrors = useServerErrors(form, ["email"], "default");
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await forgotPassword(values);
      notifySuccess("passwordRecoverySent");
      setSentTo(values.email);
    } catch (error) {
      applyErrors(error);
    }
  });
  const back = (
    <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
      {t`Back to login`}
    </Link>
  );
  if (sentTo) {
    return (
      <AuthCard title={t`Check your email`} footer={back}>
        <EmptyState
          className="py-4"
          icon={<MailCheck />}
          title={t`Password recovery instructions sent to your email.`}
          description={t`If an account exists for ${sentTo}, you will receive a link to choose a new password.`}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t`Forgot your password?`}
      description={t`Enter your email and we will send you a link to choose a new one.`}
      error={errors.root?.server?.message}
      footer={back}
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label={t`Email`} error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus {...form.register("email")} />
        </FormField>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : null}
          {t`Send instructions`}
        </Button>
      </form>
    </AuthCard>
  );
}
