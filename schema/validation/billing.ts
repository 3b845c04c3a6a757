/**
 * Billing (issue 13; spec §2 /settings/subscription, /checkout/{id}, /invoice/{id}, §4 Payment
 * status, §5 coupon/address/card rules, §9 plans, cycles and billing types): the request schemas
 * and answer types of every billing route, shared by the worker and the web (Drizzle-free, no
 * worker imports). Each failing rule is a field error with a short code (the 400
 * `validation_failed` answer names the field, e.g. `creditCard.number: invalid_card_number`).
 */
import { z } from "zod";
import { FRANCHISE_PERMISSIONS, type FranchisePermission } from "../permissions";

/** Billing cycles of a plan (spec §9): lifetime is a single payment. */
export const PLAN_CYCLES = ["monthly", "semiannual", "yearly", "lifetime"] as const;
export type PlanCycle = (typeof PLAN_CYCLES)[number];

/** Billing types (spec §9): credit card and PIX, spelled as Asaas spells them. */
export const BILLING_TYPES = ["CREDIT_CARD", "PIX"] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

/** A company's subscription state (issue 13). */
export const SUBSCRIPTION_STATUSES = ["trial", "active", "pending", "overdue", "suspended", "cancelled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** An invoice's state: pending (waiting), paid (confirmed or received), overdue, refunded, cancelled (deleted). */
export const INVOICE_STATUSES = ["pending", "paid", "overdue", "refunded", "cancelled"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Coupon discount kinds: `percent` (1–100 % of the price) or `fixed` (cents off). */
export const COUPON_KINDS = ["percent", "fixed"] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** The 27 Brazilian federative units (UF codes). */
export const BRAZIL_STATES = [
  "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
  "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
] as const;
export type BrazilState = (typeof BRAZIL_STATES)[number];

// ---------------------------------------------------------------------------------------------
// Pure validators (spec §5), reusable by the web form.

/** Digits only. */
export function onlyDigits(value: string): string {
  return value.replace(/\D/g, "");
}

/** Luhn (mod 10) check of a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card brands told apart by their number prefix. */
export const CARD_BRANDS = ["visa", "mastercard", "amex", "elo", "hipercard", "diners", "discover", "jcb", "unknown"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** Allowed lengths per brand (digits). `unknown` accepts the ISO/IEC 7812 range 13–19. */
const BRAND_LENGTHS: Record<CardBrand, number[]> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  elo: [16],
  hipercard: [16, 19],
  diners: [14, 16],
  discover: [16, 19],
  jcb: [16, 17, 18, 19],
  unknown: [13, 14, 15, 16, 17, 18, 19],
};

const ELO_PREFIXES = [
  "401178", "401179", "431274", "438935", "451416", "457393", "457631", "457632", "504175", "506699",
  "5067", "509", "627780", "636297", "636368", "650", "6516", "6550",
];

/** The brand of a card number (digits), by prefix; `unknown` when none matches. */
export function cardBrand(digits: string): CardBrand {
  if (ELO_PREFIXES.some((p) => digits.startsWith(p))) return "elo";
  if (digits.startsWith("606282") || digits.startsWith("3841")) return "hipercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^3(0[0-5]|[68])/.test(digits)) return "diners";
  if (/^35(2[89]|[3-8])/.test(digits)) return "jcb";
  if (/^4/.test(digits)) return "visa";
  const six = Number(digits.slice(0, 6));
  if (/^5[1-5]/.test(digits) || (six >= 222100 && six <= 272099)) return "mastercard";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  return "unknown";
}

/** Whether a card number (any spacing) passes Luhn and has a length its brand allows. */
export function cardNumberValid(number: string): boolean {
  const digits = onlyDigits(number);
  if (digits.length !== number.replace(/[\s-]/g, "").length) return false;
  if (!luhnValid(digits)) return false;
  return BRAND_LENGTHS[cardBrand(digits)].includes(digits.length);
}

/**
 * Whether a card expiring at the end of `month` (1–12) of `year` (2 or 4 digits) is still valid
 * at `now` (ms UTC): the card works through the last day of its expiry month.
 */
export function expiryValid(month: number, year: number, now = Date.now()): boolean {
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  const fullYear = year < 100 ? 2000 + year : year;
  const today = new Date(now);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  return fullYear > y || (fullYear === y && month >= m);
}

/** CPF check digits (11 digits, not all equal). */
export function cpfValid(value: string): boolean {
  const d = onlyDigits(value);
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== Number(d[len])) return false;
  }
  return true;
}

/** CNPJ check digits (14 digits, not all equal). */
export function cnpjValid(value: string): boolean {
  const d = onlyDigits(value);
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d)) return false;
  const weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  for (const len of [12, 13]) {
    let sum = 0;
    const w = weights.slice(13 - len);
    for (let i = 0; i < len; i++) sum += Number(d[i]) * w[i]!;
    const r = sum % 11;
    const check = r < 2 ? 0 : 11 - r;
    if (check !== Number(d[len])) return false;
  }
  return true;
}

/** A CPF (11 digits) or CNPJ (14 digits) with valid check digits, punctuation allowed. */
export function cpfCnpjValid(value: string): boolean {
  const d = onlyDigits(value);
  return d.length === 11 ? cpfValid(d) : d.length === 14 ? cnpjValid(d) : false;
}

/** A CEP: 8 digits, with or without the dash. */
export function postalCodeValid(value: string): boolean {
  return /^\d{5}-?\d{3}$/.test(value.trim());
}

// ---------------------------------------------------------------------------------------------
// Request schemas.

const required = (max: number) => z.string({ error: "required" }).trim().min(1, { error: "required" }).max(max, { error: "too_long" });

/** The card (spec §5): number (Luhn, length by brand), expiry not past, CVV 3–4 digits. Digits are kept, spaces dropped. */
export const creditCardSchema = z
  .object({
    holderName: required(120),
    number: z
      .string({ error: "required" })
      .trim()
      .min(1, { error: "required" })
      .max(30, { error: "too_long" })
      .refine(cardNumberValid, { error: "invalid_card_number" })
      .transform(onlyDigits),
    expiryMonth: z.coerce.number({ error: "invalid_expiry_month" }).int({ error: "invalid_expiry_month" }).min(1, { error: "invalid_expiry_month" }).max(12, { error: "invalid_expiry_month" }),
    expiryYear: z.coerce
      .number({ error: "invalid_expiry_year" })
      .int({ error: "invalid_expiry_year" })
      .min(0, { error: "invalid_expiry_year" })
      .max(2100, { error: "invalid_expiry_year" })
      .transform((y) => (y < 100 ? 2000 + y : y)),
    ccv: z.string({ error: "required" }).trim().regex(/^\d{3,4}$/, { error: "invalid_ccv" }),
  })
  .superRefine((v, ctx) => {
    if (!expiryValid(v.expiryMonth, v.expiryYear)) ctx.addIssue({ code: "custom", path: ["expiryYear"], message: "card_expired" });
    if (cardBrand(v.number) === "amex" ? v.ccv.length !== 4 : v.ccv.length !== 3) ctx.addIssue({ code: "custom", path: ["ccv"], message: "invalid_ccv" });
  });
export type CreditCardInput = z.input<typeof creditCardSchema>;

/**
 * The payer (Asaas `creditCardHolderInfo` and customer): name, e-mail, CPF/CNPJ (check digits),
 * CEP (8 digits), street (`address`), number, neighbourhood (`province`), city, state (UF), phone
 * (10–11 Brazilian digits). Digits-only fields are normalised to digits; `state` to upper case.
 */
export const holderSchema = z.object({
  name: required(120),
  email: z.string({ error: "required" }).trim().toLowerCase().max(254, { error: "too_long" }).pipe(z.email({ error: "invalid_email" })),
  cpfCnpj: z.string({ error: "required" }).trim().max(20, { error: "too_long" }).refine(cpfCnpjValid, { error: "invalid_cpf_cnpj" }).transform(onlyDigits),
  postalCode: z.string({ error: "required" }).trim().refine(postalCodeValid, { error: "invalid_postal_code" }).transform(onlyDigits),
  address: required(200),
  addressNumber: required(20),
  addressComplement: z.string().trim().max(120, { error: "too_long" }).optional(),
  province: required(120),
  city: required(120),
  state: z
    .string({ error: "required" })
    .trim()
    .toUpperCase()
    .refine((s) => (BRAZIL_STATES as readonly string[]).includes(s), { error: "invalid_state" }),
  phone: z
    .string({ error: "required" })
    .trim()
    .max(32, { error: "too_long" })
    .transform((p) => onlyDigits(p).replace(/^55(?=\d{10,11}$)/, ""))
    .refine((p) => /^\d{10,11}$/.test(p), { error: "invalid_phone" }),
});
export type HolderInput = z.input<typeof holderSchema>;
export type Holder = z.output<typeof holderSchema>;

/** A coupon code as typed: 1–40 letters, digits, `_` or `-`; compared without case. */
export const couponCodeSchema = z
  .string({ error: "required" })
  .trim()
  .min(1, { error: "required" })
  .max(40, { error: "too_long" })
  .regex(/^[A-Za-z0-9_-]+$/, { error: "invalid_coupon" })
  .transform((s) => s.toUpperCase());

/**
 * POST /api/companies/subscription: subscribe (or change plan). `creditCard` is required when
 * `billingType` is CREDIT_CARD (400 `creditCard: required`) and ignored for PIX. A bad coupon
 * answers 400 `invalid_coupon` (field `coupon`).
 */
export const subscribeInput = z
  .object({
    planId: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(64, { error: "invalid_id" }),
    billingType: z.enum(BILLING_TYPES, { error: "invalid_billing_type" }),
    coupon: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), couponCodeSchema.optional()),
    creditCard: creditCardSchema.optional(),
    holder: holderSchema,
  })
  .superRefine((v, ctx) => {
    if (v.billingType === "CREDIT_CARD" && !v.creditCard) ctx.addIssue({ code: "custom", path: ["creditCard"], message: "required" });
  });
export type SubscribeInput = z.input<typeof subscribeInput>;

/** PUT /api/companies/subscription/card: a new card and its holder. */
export const updateCardInput = z.object({ creditCard: creditCardSchema, holder: holderSchema });
export type UpdateCardInput = z.input<typeof updateCardInput>;

/**
 * POST /api/billing/invoices/{publicId}/pay (public checkout): pay by card (`creditCard` and
 * `holder` required) or PIX (`holder` optional; answers the QR code).
 */
export const payInvoiceInput = z
  .object({
    billingType: z.enum(BILLING_TYPES, { error: "invalid_billing_type" }),
    creditCard: creditCardSchema.optional(),
    holder: holderSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.billingType === "CREDIT_CARD") {
      if (!v.creditCard) ctx.addIssue({ code: "custom", path: ["creditCard"], message: "required" });
      if (!v.holder) ctx.addIssue({ code: "custom", path: ["holder"], message: "required" });
    }
  });
export type PayInvoiceInput = z.input<typeof payInvoiceInput>;

/** Price in integer cents (BRL), 0 to R$ 1,000,000. */
const cents = z.number({ error: "invalid_price" }).int({ error: "invalid_price" }).min(0, { error: "invalid_price" }).max(100_000_000, { error: "invalid_price" });
/** A limit (members, connections): a positive integer, or null for unlimited. */
const limit = z.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(100_000, { error: "invalid_limit" }).nullable();

/**
 * POST /api/admin/plans and PUT /api/admin/plans/{id}: `name` (1–80), `priceCents` (integer BRL
 * cents), `cycle`, `maxMembers`/`maxConnections` (null = unlimited), `features` (franchise-grantable
 * feature permissions the plan includes, spec §6), `active`. Changing the price of a plan never
 * changes existing subscribers' locked price.
 */
export const planInput = z.object({
  name: required(80),
  priceCents: cents,
  cycle: z.enum(PLAN_CYCLES, { error: "invalid_cycle" }),
  maxMembers: limit.default(null),
  maxConnections: limit.default(null),
  features: z
    .array(z.enum(FRANCHISE_PERMISSIONS, { error: "invalid_feature" }), { error: "invalid_features" })
    .max(FRANCHISE_PERMISSIONS.length, { error: "too_long" })
    .transform((f) => [...new Set(f)])
    .default([]),
  active: z.boolean({ error: "invalid_boolean" }).default(true),
});
export type PlanInput = z.input<typeof planInput>;

/**
 * POST /api/admin/coupons and PUT /api/admin/coupons/{id}: `code` (unique without case), `kind`
 * (`percent`: `value` 1–100; `fixed`: `value` cents > 0), `validUntil` (ms UTC, null = open),
 * `maxUses` (null = unlimited), `planIds` (empty = every plan).
 */
export const couponInput = z
  .object({
    code: couponCodeSchema,
    kind: z.enum(COUPON_KINDS, { error: "invalid_kind" }),
    value: z.number({ error: "invalid_value" }).int({ error: "invalid_value" }).min(1, { error: "invalid_value" }).max(100_000_000, { error: "invalid_value" }),
    validUntil: z.number({ error: "invalid_date" }).int({ error: "invalid_date" }).min(0, { error: "invalid_date" }).max(8.64e15, { error: "invalid_date" }).nullable().default(null),
    maxUses: z.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(1_000_000, { error: "invalid_limit" }).nullable().default(null),
    planIds: z.array(z.string().min(1).max(64), { error: "invalid_plans" }).max(100, { error: "too_long" }).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "percent" && v.value > 100) ctx.addIssue({ code: "custom", path: ["value"], message: "invalid_value" });
  });
export type CouponInput = z.input<typeof couponInput>;

/** Dev-only POST /api/dev/clock: shift "now" for subscription checks by `offsetMs` (may be negative). */
export const devClockInput = z.object({
  offsetMs: z.number({ error: "invalid_offset" }).int({ error: "invalid_offset" }).min(-10 * 365 * 86_400_000, { error: "invalid_offset" }).max(10 * 365 * 86_400_000, { error: "invalid_offset" }),
});

// ---------------------------------------------------------------------------------------------
// Answers.

/** A plan. Prices in integer cents (BRL); null limits are unlimited. Times ms UTC. */
export type PlanAnswer = {
  id: string;
  name: string;
  priceCents: number;
  cycle: PlanCycle;
  maxMembers: number | null;
  maxConnections: number | null;
  features: FranchisePermission[];
  active: boolean;
  createdAt: number;
  updatedAt: number;
};
/** GET /api/plans and GET /api/admin/plans. */
export type PlansAnswer = { results: PlanAnswer[]; cursor: null; total: number };

/** A coupon (admin). */
export type CouponAnswer = {
  id: string;
  code: string;
  kind: CouponKind;
  value: number;
  validUntil: number | null;
  maxUses: number | null;
  uses: number;
  planIds: string[];
  createdAt: number;
  updatedAt: number;
};
/** GET /api/admin/coupons. */
export type CouponsAnswer = { results: CouponAnswer[]; cursor: null; total: number };

/** A PIX QR code: `qrCodeImage` is a `data:image/png;base64,…` URL; `payload` the copy-and-paste EMV string; `expiresAt` ms UTC or null. */
export type PixAnswer = { qrCodeImage: string; payload: string; expiresAt: number | null };

/**
 * An invoice. `publicId` is the unguessable id of the public /checkout/{id} and /invoice/{id}
 * pages; `invoiceUrl` the provider's own page when there is one. `method` null until chosen.
 */
export type InvoiceAnswer = {
  publicId: string;
  valueCents: number;
  dueDate: number;
  paidAt: number | null;
  method: BillingType | null;
  status: InvoiceStatus;
  invoiceUrl: string | null;
  createdAt: number;
};
/** GET /api/invoices?cursor= (newest first). */
export type InvoicesAnswer = { results: InvoiceAnswer[]; cursor: string | null };

/**
 * GET /api/billing/invoices/{publicId} (public): the invoice with the company's name, the plan's
 * name and, for a pending PIX invoice, its QR code. `sandbox` true when the simulate-payment button
 * may be shown (sandbox provider).
 */
export type PublicInvoiceAnswer = InvoiceAnswer & {
  companyName: string;
  /** Who issued it: the franchise's name for a franchise's company (franchise mode on), else the product's (APP_NAME). */
  issuerName: string;
  planName: string | null;
  pix: PixAnswer | null;
  sandbox: boolean;
};

/** Which access message the web shows (spec §4, §8); null = none. */
export type AccessMessage =
  | { kind: "suspended" }
  | { kind: "pending" }
  | { kind: "expiring"; dueDate: number }
  | { kind: "contact_administrator" }
  | null;

/**
 * GET /api/companies/subscription. `paymentStatus` is the spec §4 paid|pending view; `dueDate`
 * ms UTC; `plan` null during the trial; `card` brand and last 4 digits only; `nextInvoice` the
 * oldest unpaid invoice (null when none); `message` the access message to show; `franchise` true
 * for franchise companies (who are told to contact their administrator).
 */
export type SubscriptionAnswer = {
  status: SubscriptionStatus;
  paymentStatus: "paid" | "pending";
  dueDate: number;
  plan: PlanAnswer | null;
  priceCents: number | null;
  billingType: BillingType | null;
  card: { brand: string; last4: string } | null;
  nextInvoice: InvoiceAnswer | null;
  message: AccessMessage;
  franchise: boolean;
  /**
   * A franchise company's franchise's own payment text (spec §3 Franchise admin settings `notPaid`),
   * shown instead of the generic advice while payment is due; null when none is set.
   */
  franchiseNotPaid: string | null;
  /** Whether members may use the product now (the is-valid-subscription guard). */
  valid: boolean;
};

/** POST /api/companies/subscription and POST /api/billing/invoices/{publicId}/pay: the invoice and, for PIX, its QR code. */
export type SubscribeAnswer = { subscription: SubscriptionAnswer | null; invoice: InvoiceAnswer; pix: PixAnswer | null };
export type PayInvoiceAnswer = { invoice: InvoiceAnswer; pix: PixAnswer | null };
