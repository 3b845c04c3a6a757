/**
 * /franchise (spec §2 franchise tab "settings", §3 "Franchise admin settings"; issue 14): the
 * franchise's name, logo and favicon (upload with preview), primary colour (picker with a live
 * preview of the branded app), the notInCompany and notPaid texts and the "e-mail unpaid companies"
 * switch. Saved with PUT /api/franchise (multipart).
 */
import { useEffect, useState, type CSSProperties } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { MessageSquareText } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import { isApiError } from "@/lib/api";
import { primaryColorVariables, primaryTextVariables } from "@/lib/branding";
import { useTheme } from "@/lib/theme";
import { ImagePicker } from "@/features/settings/components/image-picker";
import { SettingsFormFooter } from "@/features/settings/components/settings-form-footer";
import type { ImageChange } from "@/features/settings/lib/form-fields";
import type { FranchiseSettingsAnswer } from "../../../../../schema/validation/franchise";
import { buildSettingsForm, HEX_COLOR, settingsDefaults, settingsFormSchema, type SettingsValues } from "../lib/franchise-form";
import { useFranchiseSettings, useUpdateFranchise } from "../hooks/use-franchise";
import { FranchiseAdminsCard } from "./franchise-admins-card";
import { FranchiseQueryState } from "./franchise-query-state";

/** The product's own primary colour (web/src/index.css `--primary`), shown when none is chosen. */
const PRODUCT_COLOR = "#15803d";

/** A small picture of the branded app in `color`: the brand mark, the name and a primary button. */
function BrandPreview({ name, color, logo }: { name: string; color: string; logo: string | null }) {
  const { t } = useLingui();
  const [theme] = useTheme();
  const variables = primaryColorVariables(color) ?? primaryColorVariables(PRODUCT_COLOR);
  // Primary-coloured text in the theme in force, as the app will paint it (web/src/index.css --primary-text).
  const text = primaryTextVariables(color) ?? primaryTextVariables(PRODUCT_COLOR);
  const style = { ...variables, "--primary-text": text?.[theme === "dark" ? "--primary-on-dark" : "--primary-on-light"] };
  return (
    <div className="grid gap-3 rounded-lg border bg-muted/40 p-4" style={style as CSSProperties} data-testid="brand-preview" aria-label={t`Preview`}>
      <p className="text-xs font-medium text-muted-foreground">{t`Preview`}</p>
      <div className="flex items-center gap-2 font-semibold">
        {logo ? (
          <img src={logo} alt="" className="size-8 rounded-lg object-contain" />
        ) : (
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground" aria-hidden>
            <MessageSquareText className="size-4" />
          </span>
        )}
        <span className="truncate">{name || "\u00a0"}</span>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" size="sm" tabIndex={-1}>
          {t`Primary button`}
        </Button>
        <span className="text-sm font-medium text-primary">{t`Link and highlights`}</span>
      </div>
    </div>
  );
}

/** The object URL of a newly chosen file, else the stored picture (null when removed). */
function usePictureUrl(current: string | null, change: ImageChange): string | null {
  const [preview, setPreview] = useState<string | null>(null);
  const file = change.kind === "set" ? change.file : null;
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  if (change.kind === "remove") return null;
  return change.kind === "set" ? preview : current;
}

const FORM_FIELDS = ["name", "primaryColor", "notInCompany", "notPaid", "sendEmailToUnpaidCompany"] as const;

function SettingsForm({ settings }: { settings: FranchiseSettingsAnswer }) {
  const { t } = useLingui();
  const update = useUpdateFranchise();
  const [logo, setLogo] = useState<ImageChange>({ kind: "keep" });
  const [favicon, setFavicon] = useState<ImageChange>({ kind: "keep" });
  const [imageErrors, setImageErrors] = useState<{ logo?: string; favicon?: string }>({});
  const form = useForm<SettingsValues>({ resolver: zodResolver(settingsFormSchema), defaultValues: settingsDefaults(settings) });
  const { errors, isDirty } = form.formState;
  const name = form.watch("name");
  const color = form.watch("primaryColor").trim();
  const logoUrl = usePictureUrl(settings.logo, logo);

  const onSubmit = form.handleSubmit(async (values) => {
    setImageErrors({});
    try {
      const saved = await update.mutateAsync(buildSettingsForm(values, logo, favicon));
      setLogo({ kind: "keep" });
      setFavicon({ kind: "keep" });
      form.reset(settingsDefaults(saved));
    } catch (error) {
      const fields = isApiError(error) ? error.fields : {};
      if (fields.logo || fields.favicon) setImageErrors({ logo: fields.logo, favicon: fields.favicon });
      applyServerErrors(form.setError, error, FORM_FIELDS);
    }
  });

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle as="h2">{t`Brand`}</CardTitle>
          <CardDescription>{t`Your clients see this name, logo, icon and colour on your addresses and in the e-mails of their companies.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
          <FormField label={t`Franchise name`} error={errors.name?.message}>
            <Input autoComplete="organization" {...form.register("name")} />
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <ImagePicker
              label={t`Logo`}
              name={name || settings.name}
              current={settings.logo}
              change={logo}
              onChange={(change) => {
                setLogo(change);
                setImageErrors((current) => ({ ...current, logo: undefined }));
              }}
              removable
              error={imageErrors.logo}
              disabled={update.isPending}
            />
            <ImagePicker
              label={t`Favicon`}
              name={name || settings.name}
              current={settings.favicon}
              change={favicon}
              onChange={(change) => {
                setFavicon(change);
                setImageErrors((current) => ({ ...current, favicon: undefined }));
              }}
              removable
              error={imageErrors.favicon}
              disabled={update.isPending}
            />
          </div>
          <Controller
            control={form.control}
            name="primaryColor"
            render={({ field }) => (
              <FormField label={t`Primary colour`} error={errors.primaryColor?.message} hint={t`Buttons, links and highlights. Leave blank for the product's colour.`}>
                <div className="flex items-center gap-2">
                  <input
                    type="color"
                    aria-label={t`Pick the primary colour`}
                    className="h-9 w-12 shrink-0 cursor-pointer rounded-md border bg-background p-1"
                    value={HEX_COLOR.test(field.value.trim()) && field.value.trim().length === 7 ? field.value.trim().toLowerCase() : PRODUCT_COLOR}
                    onChange={(event) => field.onChange(event.target.value)}
                    disabled={update.isPending}
                  />
                  <Input name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} placeholder={PRODUCT_COLOR} maxLength={7} className="max-w-32 font-mono" />
                </div>
              </FormField>
            )}
          />
          <BrandPreview name={name || settings.name} color={HEX_COLOR.test(color) ? color : PRODUCT_COLOR} logo={logoUrl} />
          <FormField label={t`Message for users without a company`} error={errors.notInCompany?.message} hint={t`Shown to someone who signs in on your address but belongs to no company.`}>
            <Textarea rows={3} {...form.register("notInCompany")} />
          </FormField>
          <FormField label={t`Message for companies with overdue payment`} error={errors.notPaid?.message} hint={t`Shown to your companies whose payment is overdue, and sent by e-mail when the option below is on.`}>
            <Textarea rows={3} {...form.register("notPaid")} />
          </FormField>
          <Controller
            control={form.control}
            name="sendEmailToUnpaidCompany"
            render={({ field }) => (
              <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
                <div className="grid gap-1">
                  <label htmlFor="send-email-unpaid" className="text-sm leading-none font-medium">
                    {t`E-mail companies with overdue payment`}
                  </label>
                  <p id="send-email-unpaid-hint" className="text-xs text-muted-foreground">
                    {t`Once a day, the owners of your unpaid companies receive the message above through your e-mail server.`}
                  </p>
                </div>
                <Switch id="send-email-unpaid" aria-describedby="send-email-unpaid-hint" checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} />
              </div>
            )}
          />
        </CardContent>
        <SettingsFormFooter
          changed={isDirty || logo.kind !== "keep" || favicon.kind !== "keep"}
          saving={update.isPending}
          onDiscard={() => {
            form.reset();
            setLogo({ kind: "keep" });
            setFavicon({ kind: "keep" });
            setImageErrors({});
          }}
        />
      </form>
    </Card>
  );
}

/** The franchise settings tab. */
export function FranchiseSettingsPage() {
  const { t } = useLingui();
  const settings = useFranchiseSettings();
  return (
    <section aria-label={t`Settings`} className="grid max-w-3xl gap-4">
      <FranchiseQueryState pending={settings.isPending} error={settings.error} onRetry={() => void settings.refetch()} rows={6}>
        {() =>
          settings.data && (
            <>
              <SettingsForm key={settings.data.id} settings={settings.data} />
              <FranchiseAdminsCard />
            </>
          )
        }
      </FranchiseQueryState>
    </section>
  );
}
