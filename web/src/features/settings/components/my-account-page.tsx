import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { applyServerErrors } from "@/lib/form-errors";
import { isApiError } from "@/lib/api";
import { useMe } from "@/features/session/hooks/use-session";
import type { MeAnswer } from "../../../../../schema/api-types";
import { buildProfileForm, profileFormSchema, profileProblem, type ProfileValues } from "../lib/profile-form";
import type { ImageChange } from "../lib/form-fields";
import { useUpdateProfile } from "../hooks/use-settings";
import { ImagePicker } from "./image-picker";
import { SettingsFormSkeleton } from "./settings-form-skeleton";
import { SettingsFormFooter } from "./settings-form-footer";

function ProfileForm({ me }: { me: MeAnswer }) {
  const { t } = useLingui();
  const update = useUpdateProfile();
  const [image, setImage] = useState<ImageChange>({ kind: "keep" });
  const [imageError, setImageError] = useState<string | undefined>();
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { name: me.name, phone: me.phone ?? "" },
  });
  const { errors, isDirty } = form.formState;
  const chosen = image.kind === "set" ? image.file : null;

  const onSubmit = form.handleSubmit(async (values) => {
    setImageError(undefined);
    // spec §5: rejected locally when neither name nor image is given.
    const problem = profileProblem(values, chosen);
    if (problem) {
      form.setError("name", { type: "local", message: problem });
      return;
    }
    try {
      const saved = await update.mutateAsync(buildProfileForm(values, chosen));
      setImage({ kind: "keep" });
      form.reset({ name: saved.name, phone: saved.phone ?? "" });
    } catch (error) {
      const imageCode = isApiError(error) ? error.fields.image : undefined;
      if (imageCode) setImageError(imageCode);
      else applyServerErrors(form.setError, error, ["name", "phone"]);
    }
  });

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle as="h2">{t`Profile`}</CardTitle>
          <CardDescription>{t`How you appear to your team and customers.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
          <ImagePicker
            label={t`Profile picture`}
            name={form.watch("name") || me.name}
            current={me.image}
            change={image}
            onChange={(change) => {
              setImage(change);
              setImageError(undefined);
            }}
            error={imageError}
            disabled={update.isPending}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label={t`Name`} error={errors.name?.message}>
              <Input autoComplete="name" {...form.register("name")} />
            </FormField>
            <FormField label={t`Phone`} error={errors.phone?.message} hint={t`With area code, e.g. +55 11 91234-5678.`}>
              <Input type="tel" autoComplete="tel" {...form.register("phone")} />
            </FormField>
            <FormField label={t`Email`} hint={t`Your sign-in email cannot be changed here.`} className="sm:col-span-2">
              <Input type="email" value={me.email} readOnly className="bg-muted/50 text-muted-foreground" />
            </FormField>
          </div>
        </CardContent>
        <SettingsFormFooter
          changed={isDirty || image.kind !== "keep"}
          saving={update.isPending}
          onDiscard={() => {
            form.reset();
            setImage({ kind: "keep" });
            setImageError(undefined);
          }}
        />
      </form>
    </Card>
  );
}

/** /settings, tab "my account" (spec §2; login only): name, phone, picture; e-mail read-only. */
export function MyAccountSettingsPage() {
  const { t } = useLingui();
  const me = useMe();
  return (
    <section aria-label={t`My account`} className="grid max-w-3xl gap-4">
      {me.isPending ? (
        <SettingsFormSkeleton />
      ) : me.isError ? (
        <Card>
          <ErrorState title={t`Could not load your account.`} onRetry={() => void me.refetch()} />
        </Card>
      ) : (
        <ProfileForm key={me.data.id} me={me.data} />
      )}
    </section>
  );
}
