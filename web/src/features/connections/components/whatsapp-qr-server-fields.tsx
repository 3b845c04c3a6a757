/**
 * The optional Evolution API server of a new WhatsApp (QR code) connection (issue 15): its URL and
 * API key, when this connection should not use the server the product is configured with
 * (EVOLUTION_API_URL / EVOLUTION_API_KEY). Both or neither; the key is stored encrypted and never
 * shown again.
 */
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { useLingui } from "@lingui/react/macro";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ConnectionFormValues } from "../lib/connection-form";

export function WhatsappQrServerFields({ register, errors }: { register: UseFormRegister<ConnectionFormValues>; errors: FieldErrors<ConnectionFormValues> }) {
  const { t } = useLingui();
  return (
    <details className="grid gap-4 rounded-lg border p-3">
      <summary className="cursor-pointer text-sm font-medium">{t`Own Evolution API server (optional)`}</summary>
      <div className="mt-3 grid gap-4">
        <p className="text-sm text-muted-foreground">{t`Leave blank to use the server this product is configured with.`}</p>
        <FormField label={t`Server URL`} error={errors.evolutionUrl?.message}>
          <Input type="url" autoComplete="off" placeholder="https://evo.example.com" {...register("evolutionUrl")} />
        </FormField>
        <FormField label={t`API key`} error={errors.evolutionApiKey?.message} hint={t`Stored encrypted; never shown again.`}>
          <Input type="password" autoComplete="off" {...register("evolutionApiKey")} />
        </FormField>
      </div>
    </details>
  );
}
