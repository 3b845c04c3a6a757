/**
 * The payment form of /settings/subscription and /checkout/{id} (issue 13; spec §5 card and
 * address rules): its values as the inputs hold them (every field a string), the live checks that
 * put a field code under each field as the person types (the shared validators of
 * schema/validation/billing.ts, so the browser says what the server would), and the API inputs.
 * Field names follow the server's (`creditCard.number`, `holder.postalCode`) so a 400's `fields`
 * land under the same fields.
 */
import { z } from "zod";
import {
  BILLING_TYPES,
  cardBrand,
  cardNumberValid,
  couponCodeSchema,
  expiryValid,
  holderSchema,
  onlyDigits,
  type BillingType,
  type CreditCardInput,
  type HolderInput,
} from "../../../../../schema/validation/billing";

/** The card as typed. */
export type CardValues = { holderName: string; number: string; expiryMonth: string; expiryYear: string; ccv: string };
/** The payer's address and document as typed. */
export type HolderValues = {
  name: string;
  email: string;
  cpfCnpj: string;
  postalCode: string;
  address: string;
  addressNumber: string;
  addressComplement: string;
  province: string;
  city: string;
  state: string;
  phone: string;
};
/** The whole form. `coupon` is used by the subscription form only. */
export type PaymentFormValues = { billingType: BillingType; creditCard: CardValues; holder: HolderValues; coupon: string };

/** A field → field code map (codes of lib/error-messages.ts). */
export type FieldCodes<T> = Partial<Record<keyof T, string>>;

/** Every field the server may name in a 400, as form paths. */
export const PAYMENT_FIELD_PATHS = [
  "billingType",
  "coupon",
  "creditCard.holderName",
  "creditCard.number",
  "creditCard.expiryMonth",
  "creditCard.expiryYear",
  "creditCard.ccv",
  "holder.name",
  "holder.email",
  "holder.cpfCnpj",
  "holder.postalCode",
  "holder.address",
  "holder.addressNumber",
  "holder.addressComplement",
  "holder.province",
  "holder.city",
  "holder.state",
  "holder.phone",
] as const;

/**
 * The card's field codes at `now` (ms): `required`, `invalid_card_number` (Luhn and the brand's
 * length), `invalid_expiry_month`, `invalid_expiry_year`, `card_expired` (on the year), `invalid_ccv`
 * (3 digits, 4 for American Express). Empty when the card is valid.
 */
export function cardFieldErrors(card: CardValues, now = Date.now()): FieldCodes<CardValues> {
  const errors: FieldCodes<CardValues> = {};
  if (!card.holderName.trim()) errors.holderName = "required";
  const number = card.number.trim();
  if (!number) errors.number = "required";
  else if (!cardNumberValid(number)) errors.number = "invalid_card_number";
  const month = Number(card.expiryMonth);
  const monthOk = /^\d{1,2}$/.test(card.expiryMonth.trim()) && month >= 1 && month <= 12;
  if (!monthOk) errors.expiryMonth = card.expiryMonth.trim() ? "invalid_expiry_month" : "required";
  const yearText = card.expiryYear.trim();
  if (!/^(\d{2}|\d{4})$/.test(yearText)) errors.expiryYear = yearText ? "invalid_expiry_year" : "required";
  else if (monthOk && !expiryValid(month, Number(yearText), now)) errors.expiryYear = "card_expired";
  const ccv = card.ccv.trim();
  const wanted = cardBrand(onlyDigits(number)) === "amex" ? 4 : 3;
  if (!ccv) errors.ccv = "required";
  else if (!/^\d+$/.test(ccv) || ccv.length !== wanted) errors.ccv = "invalid_ccv";
  return errors;
}

/** The holder's field codes by the server's own schema (required, invalid_cpf_cnpj, invalid_postal_code, invalid_state, invalid_phone…). */
export function holderFieldErrors(holder: HolderValues): FieldCodes<HolderValues> {
  const parsed = holderSchema.safeParse(holderInput(holder));
  const errors: FieldCodes<HolderValues> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (typeof key === "string" && key in holder && !errors[key as keyof HolderValues]) errors[key as keyof HolderValues] = issue.message;
  }
  return errors;
}

/** Options of the form's checks: whether the payer's address is asked (card payments, subscriptions) and "now". */
export type PaymentFormOptions = { needsHolder: (values: PaymentFormValues) => boolean; now?: () => number };

/** The form's zod schema (for react-hook-form's zodResolver): card checks only when paying by card. */
export function paymentFormSchema(options: PaymentFormOptions) {
  const text = z.string();
  return z
    .object({
      billingType: z.enum(BILLING_TYPES, { error: "invalid_billing_type" }),
      creditCard: z.object({ holderName: text, number: text, expiryMonth: text, expiryYear: text, ccv: text }),
      holder: z.object({
        name: text,
        email: text,
        cpfCnpj: text,
        postalCode: text,
        address: text,
        addressNumber: text,
        addressComplement: text,
        province: text,
        city: text,
        state: text,
        phone: text,
      }),
      coupon: text,
    })
    .superRefine((values, ctx) => {
      if (values.billingType === "CREDIT_CARD") {
        for (const [field, code] of Object.entries(cardFieldErrors(values.creditCard, options.now?.()))) {
          ctx.addIssue({ code: "custom", path: ["creditCard", field], message: code });
        }
      }
      if (options.needsHolder(values)) {
        for (const [field, code] of Object.entries(holderFieldErrors(values.holder))) {
          ctx.addIssue({ code: "custom", path: ["holder", field], message: code });
        }
      }
      if (values.coupon.trim() && !couponCodeSchema.safeParse(values.coupon).success) {
        ctx.addIssue({ code: "custom", path: ["coupon"], message: "invalid_coupon" });
      }
    });
}

/** Empty form values (PIX chosen; the holder prefilled with what the app knows). */
export function emptyPaymentForm(prefill: Partial<HolderValues> = {}, billingType: BillingType = "PIX"): PaymentFormValues {
  return {
    billingType,
    creditCard: { holderName: "", number: "", expiryMonth: "", expiryYear: "", ccv: "" },
    holder: {
      name: "",
      email: "",
      cpfCnpj: "",
      postalCode: "",
      address: "",
      addressNumber: "",
      addressComplement: "",
      province: "",
      city: "",
      state: "",
      phone: "",
      ...prefill,
    },
    coupon: "",
  };
}

/** The API's card input of the typed card (digits only). */
export function cardInput(card: CardValues): CreditCardInput {
  return {
    holderName: card.holderName.trim(),
    number: onlyDigits(card.number),
    expiryMonth: Number(card.expiryMonth),
    expiryYear: Number(card.expiryYear),
    ccv: card.ccv.trim(),
  };
}

/** The API's holder input of the typed address (a blank complement is left out). */
export function holderInput(holder: HolderValues): HolderInput {
  const { addressComplement, ...rest } = holder;
  return addressComplement.trim() ? { ...rest, addressComplement } : rest;
}
