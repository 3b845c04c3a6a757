/**
 * The slide-over form that creates or edits a connection (spec §3 Connection: name, phone, greeting
 * and farewell messages; channel sandbox or WhatsApp Cloud API with its phone number id, WABA id
 * and access token). A Cloud API connection has no typed phone: the worker proves the token against
 * the number at Meta and the form shows what Meta answered (display number, verified name, quality
 * rating). Validated with the worker's own zod schemas; server field errors land under their fields.
 */
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { useLingui } from "@lingui/react/macro";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import { useServerErrors } from "@/features/auth/hooks/use-server-errors";
import type { Connection } from "../api/connections-api";
import { useCreateConnection, useUpdateConnection } from "../hooks/use-connections";
import { connectionFormResolver, EMPTY_CONNECTION_FORM, formValuesOf, toCreateInput, toUpdateInput, type ConnectionFormValues } from "../lib/connection-form";
import { CloudNumberDetails } from "./cloud-number-details";
import { WhatsappQrServerFields } from "./whatsapp-qr-server-fields";

const controlClass =
  "w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-sm shadow-xs outline-none placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring/60 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive";

const FORM_FIELDS = ["name", "channel", "phone", "greetingMessage", "farewellMessage", "phoneNumberId", "wabaId", "accessToken", "evolutionUrl", "evolutionApiKey"] as const;

/**
 * The create/edit sheet. `connection` null creates; otherwise edits it. `onCreated` receives a new
 * connection (the screen offers to pair a sandbox one at once).
 */
export function ConnectionFormSheet({
  open,
  onOpenChange,
  connection,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  connection: Connection | null;
  onCreated?: (connection: Connection) => void;
}) {
  const { t } = useLingui();
  const mode = connection ? "edit" : "create";
  const form = useForm<ConnectionFormValues>({ resolver: connectionFormResolver(mode), defaultValues: EMPTY_CONNECTION_FORM });
  const applyErrors = useServerErrors(form, FORM_FIELDS, "default");
  const create = useCreateConnection();
  const update = useUpdateConnection();
  const { errors, isSubmitting } = form.formState;
  const channel = form.watch("channel");

  // Reset when the sheet opens (or targets another connection), not when a live update refreshes the row.
  const latest = useRef(connection);
  latest.current = connection;
  const connectionId = connection?.id ?? null;
  useEffect(() => {
    if (open) form.reset(latest.current ? formValuesOf(latest.current) : EMPTY_CONNECTION_FORM);
  }, [open, connectionId, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (connection) {
        await update.mutateAsync({ id: connection.id, input: toUpdateInput(values) });
      } else {
        const created = await create.mutateAsync(toCreateInput(values));
        onCreated?.(created);
      }
      onOpenChange(false);
    } catch (error) {
      applyErrors(error);
    }
  });

  const cloud = channel === "whatsapp-cloud";
  const qr = channel === "whatsapp-qr";
  const tokenHint = connection?.accessTokenHint ?? null;
  return (
    <FormSheet
      open={open}
      onClose={() => onOpenChange(false)}
      title={connection ? t`Edit connection` : t`New connection`}
      description={t`Name the connection, choose its channel and the messages sent when a conversation starts and ends.`}
      className="max-w-md sm:max-w-md"
    >
      <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={isSubmitting} submitLabel={connection ? t`Save` : t`Create`}>
        <FormField label={t`Name`} error={errors.name?.message}>
          <Input autoFocus autoComplete="off" {...form.register("name")} />
        </FormField>
        <FormField label={t`Channel`} error={errors.channel?.message} hint={connection ? t`The channel of a connection cannot be changed.` : undefined}>
          <select className={cn(controlClass, "h-9 py-1")} disabled={connection !== null} {...form.register("channel")}>
            <option value="sandbox">{t`Sandbox phone (simulator)`}</option>
            <option value="whatsapp-cloud">{t`WhatsApp Cloud API`}</option>
            <option value="whatsapp-qr">{t`WhatsApp (QR code)`}</option>
          </select>
        </FormField>
        {cloud ? null : (
          <FormField
            label={t`Phone`}
            error={errors.phone?.message}
            hint={qr ? t`Optional. With it you can also pair by a code typed on the phone instead of scanning the QR code.` : t`Optional. With area code, e.g. +55 11 91234-5678.`}
          >
            <Input type="tel" autoComplete="off" {...form.register("phone")} />
          </FormField>
        )}
        {cloud ? (
          <fieldset className="grid gap-4 rounded-lg border p-3">
            <legend className="px-1 text-sm font-medium">{t`WhatsApp Cloud API`}</legend>
            {connection ? (
              <CloudNumberDetails connection={connection} />
            ) : (
              <p className="text-sm text-muted-foreground">{t`The number, its verified name and its quality rating come from Meta once the access token is verified.`}</p>
            )}
            <FormField label={t`Phone number ID`} error={errors.phoneNumberId?.message} hint={connection ? t`The phone number ID cannot be changed.` : undefined}>
              <Input inputMode="numeric" autoComplete="off" readOnly={connection !== null} {...form.register("phoneNumberId")} />
            </FormField>
            <FormField label={t`WhatsApp Business Account ID`} error={errors.wabaId?.message} hint={t`Optional.`}>
              <Input inputMode="numeric" autoComplete="off" {...form.register("wabaId")} />
            </FormField>
            <FormField
              label={t`Access token`}
              error={errors.accessToken?.message}
              hint={tokenHint ? t`Stored token: ${tokenHint}. Leave blank to keep it; a new token is verified with Meta.` : undefined}
            >
              <Input type="password" autoComplete="off" {...form.register("accessToken")} />
            </FormField>
          </fieldset>
        ) : null}
        {qr && !connection ? <WhatsappQrServerFields register={form.register} errors={errors} /> : null}
        <FormField label={t`Greeting message`} error={errors.greetingMessage?.message} hint={t`Sent when a new conversation starts.`}>
          <Textarea rows={3} {...form.register("greetingMessage")} />
        </FormField>
        <FormField label={t`Farewell message`} error={errors.farewellMessage?.message} hint={t`Sent when a conversation is closed.`}>
          <Textarea rows={3} {...form.register("farewellMessage")} />
        </FormField>
      </FormSheetForm>
    </FormSheet>
  );
}
