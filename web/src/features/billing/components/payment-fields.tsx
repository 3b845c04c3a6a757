/**
 * The payment form's fields (issue 13; spec §5): the method choice (card or PIX, spec §9), the card
 * (number grouped by four with its brand, expiry month and year, CVV) and the payer's document and
 * address (CPF/CNPJ with its mask, CEP, street, number, complement, neighbourhood, city, UF select
 * of the 27, phone). Field codes from the live checks (lib/payment-form.ts) and from the server's
 * 400 show under their fields (FormField translates them).
 */
import type { ChangeEvent } from "react";
import type { UseFormReturn } from "react-hook-form";
import { useLingui } from "@lingui/react/macro";
import { CreditCard, QrCode } from "lucide-react";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { cn } from "@/lib/utils";
import { BRAZIL_STATES, cardBrand, onlyDigits, type BillingType } from "../../../../../schema/validation/billing";
import { METHOD_LABELS } from "../lib/labels";
import { maskCardNumber, maskCpfCnpj, maskPhone, maskPostalCode } from "../lib/masks";
import type { PaymentFormValues } from "../lib/payment-form";

type Form = UseFormReturn<PaymentFormValues>;

/** The brands' display names (a brand is a name, not translated). */
const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  elo: "Elo",
  hipercard: "Hipercard",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
};

/** A card brand's display name ("Visa"); the raw value for brands it does not know. */
export function brandName(brand: string): string {
  return BRAND_NAMES[brand.toLowerCase()] ?? brand;
}

/** `register` of a masked text field: the mask rewrites what was typed before the form reads it. */
function masked(form: Form, name: Parameters<Form["register"]>[0], mask: (value: string) => string) {
  const field = form.register(name);
  return {
    ...field,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      event.target.value = mask(event.target.value);
      return field.onChange(event);
    },
  };
}

/** Card or PIX, as two large toggle buttons (a radio group). */
export function MethodChoice({ value, onChange }: { value: BillingType; onChange: (value: BillingType) => void }) {
  const { t, i18n } = useLingui();
  const options: { value: BillingType; icon: typeof CreditCard }[] = [
    { value: "PIX", icon: QrCode },
    { value: "CREDIT_CARD", icon: CreditCard },
  ];
  return (
    <div role="radiogroup" aria-label={t`Payment method`} className="grid grid-cols-2 gap-2">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={value === option.value}
          data-testid={`method-${option.value}`}
          onClick={() => onChange(option.value)}
          className={cn(
            "flex items-center justify-center gap-2 rounded-lg border p-3 text-sm font-medium outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
            value === option.value && "border-primary bg-primary/5 ring-1 ring-primary",
          )}
        >
          <option.icon className="size-4" aria-hidden />
          {i18n._(METHOD_LABELS[option.value])}
        </button>
      ))}
    </div>
  );
}

/** The card's fields. */
export function CardFields({ form }: { form: Form }) {
  const { t } = useLingui();
  const errors = form.formState.errors.creditCard;
  const number = form.watch("creditCard.number");
  const brand = cardBrand(onlyDigits(number ?? ""));
  return (
    <fieldset className="grid gap-4" data-testid="card-fields">
      <legend className="sr-only">{t`Card`}</legend>
      <FormField label={t`Card number`} error={errors?.number?.message} hint={brand !== "unknown" ? brandName(brand) : undefined}>
        <Input inputMode="numeric" autoComplete="cc-number" placeholder="0000 0000 0000 0000" {...masked(form, "creditCard.number", maskCardNumber)} />
      </FormField>
      <FormField label={t`Name on the card`} error={errors?.holderName?.message}>
        <Input autoComplete="cc-name" {...form.register("creditCard.holderName")} />
      </FormField>
      <div className="grid grid-cols-3 items-start gap-3">
        <FormField label={t`Month`} error={errors?.expiryMonth?.message}>
          <Input inputMode="numeric" autoComplete="cc-exp-month" placeholder={t`MM`} maxLength={2} {...masked(form, "creditCard.expiryMonth", (v) => onlyDigits(v).slice(0, 2))} />
        </FormField>
        <FormField label={t`Year`} error={errors?.expiryYear?.message}>
          <Input inputMode="numeric" autoComplete="cc-exp-year" placeholder={t`YYYY`} maxLength={4} {...masked(form, "creditCard.expiryYear", (v) => onlyDigits(v).slice(0, 4))} />
        </FormField>
        <FormField label={t`CVV`} error={errors?.ccv?.message}>
          <Input inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} {...masked(form, "creditCard.ccv", (v) => onlyDigits(v).slice(0, 4))} />
        </FormField>
      </div>
    </fieldset>
  );
}

/** The payer's document, contact and address. */
export function HolderFields({ form }: { form: Form }) {
  const { t } = useLingui();
  const errors = form.formState.errors.holder;
  return (
    <fieldset className="grid gap-4" data-testid="holder-fields">
      <legend className="mb-1 text-sm font-medium">{t`Billing details`}</legend>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label={t`Full name or company name`} error={errors?.name?.message}>
          <Input autoComplete="name" {...form.register("holder.name")} />
        </FormField>
        <FormField label={t`CPF or CNPJ`} error={errors?.cpfCnpj?.message}>
          <Input inputMode="numeric" placeholder="000.000.000-00" {...masked(form, "holder.cpfCnpj", maskCpfCnpj)} />
        </FormField>
        <FormField label={t`Email`} error={errors?.email?.message}>
          <Input type="email" autoComplete="email" {...form.register("holder.email")} />
        </FormField>
        <FormField label={t`Phone`} error={errors?.phone?.message}>
          <Input type="tel" autoComplete="tel-national" placeholder="(11) 91234-5678" {...masked(form, "holder.phone", maskPhone)} />
        </FormField>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-[10rem_1fr]">
        <FormField label={t`CEP`} error={errors?.postalCode?.message}>
          <Input inputMode="numeric" autoComplete="postal-code" placeholder="00000-000" {...masked(form, "holder.postalCode", maskPostalCode)} />
        </FormField>
        <FormField label={t`Street`} error={errors?.address?.message}>
          <Input autoComplete="address-line1" {...form.register("holder.address")} />
        </FormField>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-[10rem_1fr]">
        <FormField label={t`Number`} error={errors?.addressNumber?.message}>
          <Input {...form.register("holder.addressNumber")} />
        </FormField>
        <FormField label={t`Complement (optional)`} error={errors?.addressComplement?.message}>
          <Input autoComplete="address-line2" {...form.register("holder.addressComplement")} />
        </FormField>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-[1fr_1fr_8rem]">
        <FormField label={t`Neighbourhood`} error={errors?.province?.message}>
          <Input {...form.register("holder.province")} />
        </FormField>
        <FormField label={t`City`} error={errors?.city?.message}>
          <Input autoComplete="address-level2" {...form.register("holder.city")} />
        </FormField>
        <FormField label={t`State`} error={errors?.state?.message}>
          <NativeSelect autoComplete="address-level1" {...form.register("holder.state")}>
            <option value="">{t`UF`}</option>
            {BRAZIL_STATES.map((uf) => (
              <option key={uf} value={uf}>
                {uf}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
    </fieldset>
  );
}
