import { useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Building2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Combobox } from "@/components/ui/combobox";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { applyServerErrors } from "@/lib/form-errors";
import { isApiError } from "@/lib/api";
import { LOCALE_NAMES, LOCALES } from "@/lib/i18n";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { DEFAULT_OPT_OUT_WORDS } from "../../../../../schema/validation/company";
import { buildCompanyForm, companyDefaults, companyFormSchema, type CompanyValues } from "../lib/company-form";
import type { ImageChange } from "../lib/form-fields";
import { PAYMENT_STATUS_LABELS, PLAN_LABELS } from "../lib/labels";
import { timeZoneOptions } from "../lib/time-zones";
import { useUpdateCompany } from "../hooks/use-settings";
import { ImagePicker } from "./image-picker";
import { SettingsFormSkeleton } from "./settings-form-skeleton";
import { SettingsFormFooter } from "./settings-form-footer";
import { formatDate } from "@/lib/dates";

/** Plan, payment status and due date, read-only (spec §3 Company). */
function SubscriptionSummary({ company }: { company: CompanyAnswer }) {
  const { t, i18n } = useLingui();
  const due =
    company.plan === "lifetime"
      ? t`No due date`
      : formatDate(company.dueDate, { locale: i18n.locale });
  const rows = [
    { term: t`Plan`, value: i18n._(PLAN_LABELS[company.plan]) },
    { term: t`Payment status`, value: i18n._(PAYMENT_STATUS_LABELS[company.paymentStatus]) },
    { term: t`Due date`, value: due },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Subscription`}</CardTitle>
        <CardDescription>{t`Read-only here; the plan is managed in the Subscription tab.`}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-3">
          {rows.map((row) => (
            <div key={row.term} className="grid gap-1">
              <dt className="text-xs text-muted-foreground">{row.term}</dt>
              <dd className="text-sm font-medium">{row.value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

const FORM_FIELDS = ["name", "timezone", "language", "showAttendantName", "whatsappNumber", "optOutWords"] as const;

function CompanyForm({ company }: { company: CompanyAnswer }) {
  const { t, i18n } = useLingui();
  const update = useUpdateCompany();
  const [image, setImage] = useState<ImageChange>({ kind: "keep" });
  const [imageError, setImageError] = useState<string | undefined>();
  const form = useForm<CompanyValues>({ resolver: zodResolver(companyFormSchema), defaultValues: companyDefaults(company) });
  const { errors, isDirty } = form.formState;
  const zones = useMemo(() => timeZoneOptions(company.timezone, new Date(), i18n.locale), [company.timezone, i18n.locale]);
  const defaultStopWords = DEFAULT_OPT_OUT_WORDS.join(", ");

  const onSubmit = form.handleSubmit(async (values) => {
    setImageError(undefined);
    try {
      const saved = await update.mutateAsync(buildCompanyForm(values, image));
      setImage({ kind: "keep" });
      form.reset(companyDefaults(saved));
    } catch (error) {
      const imageCode = isApiError(error) ? error.fields.image : undefined;
      if (imageCode) setImageError(imageCode);
      else applyServerErrors(form.setError, error, FORM_FIELDS);
    }
  });

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle as="h2">{t`Company details`}</CardTitle>
          <CardDescription>{t`Name, logo, time zone and language of the company.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
          <ImagePicker
            label={t`Logo`}
            name={form.watch("name") || company.name}
            current={company.image}
            change={image}
            onChange={(change) => {
              setImage(change);
              setImageError(undefined);
            }}
            removable
            error={imageError}
            disabled={update.isPending}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label={t`Company name`} error={errors.name?.message}>
              <Input autoComplete="organization" {...form.register("name")} />
            </FormField>
            <FormField label={t`WhatsApp number`} error={errors.whatsappNumber?.message} hint={t`With area code, e.g. +55 11 91234-5678.`}>
              <Input type="tel" autoComplete="tel" {...form.register("whatsappNumber")} />
            </FormField>
            <Controller
              control={form.control}
              name="timezone"
              render={({ field }) => (
                <FormField label={t`Time zone`} error={errors.timezone?.message}>
                  <Combobox
                    options={zones}
                    value={field.value}
                    onValueChange={field.onChange}
                    onBlur={field.onBlur}
                    placeholder={t`Choose a time zone`}
                    searchLabel={t`Search time zones`}
                    emptyText={t`No time zone found.`}
                  />
                </FormField>
              )}
            />
            <FormField label={t`Default language`} error={errors.language?.message}>
              <NativeSelect {...form.register("language")}>
                {LOCALES.map((locale) => (
                  <option key={locale} value={locale} lang={locale}>
                    {LOCALE_NAMES[locale]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
          <FormField
            label={t`Opt-out words`}
            error={errors.optOutWords?.message}
            hint={t`A customer who sends one of these words (case and accents ignored) stops receiving broadcasts and leaves every shipping cycle. Separate them with commas; leave blank for the defaults: ${defaultStopWords}.`}
          >
            <Input placeholder={defaultStopWords} maxLength={2000} {...form.register("optOutWords")} />
          </FormField>
          <Controller
            control={form.control}
            name="showAttendantName"
            render={({ field }) => (
              <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
                <div className="grid gap-1">
                  <label htmlFor="show-attendant-name" className="text-sm leading-none font-medium">
                    {t`Show attendant name`}
                  </label>
                  <p id="show-attendant-name-hint" className="text-xs text-muted-foreground">
                    {t`Messages sent by a member start with their name, so customers know who is answering.`}
                  </p>
                </div>
                <Switch
                  id="show-attendant-name"
                  aria-describedby="show-attendant-name-hint"
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                />
              </div>
            )}
          />
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

/**
 * /settings/company (spec §2; permission settings_company): name, logo, time zone, default
 * language, "show attendant name", WhatsApp number; plan, payment status and due date read-only.
 */
export function CompanySettingsPage() {
  const { t } = useLingui();
  const company = useActiveCompany();
  return (
    <section aria-label={t`Company`} className="grid max-w-3xl gap-4">
      {company.isPending ? (
        <>
          <SettingsFormSkeleton rows={4} />
          <Skeleton className="h-32 w-full rounded-xl" />
        </>
      ) : company.isError ? (
        <Card>
          <ErrorState title={t`Could not load the company.`} onRetry={() => void company.refetch()} />
        </Card>
      ) : company.data === null ? (
        <Card>
          <EmptyState icon={<Building2 />} title={t`You are not part of any company!`} />
        </Card>
      ) : (
        <>
          <CompanyForm key={company.data.id} company={company.data} />
          <SubscriptionSummary company={company.data} />
        </>
      )}
    </section>
  );
}
