/**
 * The billing calls of issue 13 (worker/routes/billing*.ts): plans on sale, the company's
 * subscription (subscribe or change plan, update the card, cancel), its invoices, and the public
 * invoice of the /checkout/{id} and /invoice/{id} pages (pay, and the sandbox provider's simulated
 * payment). Answers are parsed at the edge with the runtime schemas below.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { FRANCHISE_PERMISSIONS } from "../../../../../schema/permissions";
import {
  BILLING_TYPES,
  INVOICE_STATUSES,
  PLAN_CYCLES,
  SUBSCRIPTION_STATUSES,
  type AccessMessage,
  type InvoiceAnswer,
  type InvoicesAnswer,
  type PayInvoiceAnswer,
  type PayInvoiceInput,
  type PixAnswer,
  type PlanAnswer,
  type PublicInvoiceAnswer,
  type SubscribeAnswer,
  type SubscribeInput,
  type SubscriptionAnswer,
  type UpdateCardInput,
} from "../../../../../schema/validation/billing";

/** Runtime parser of PlanAnswer. */
export const planAnswer: z.ZodType<PlanAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: z.number(),
  cycle: z.enum(PLAN_CYCLES),
  maxMembers: z.number().nullable(),
  maxConnections: z.number().nullable(),
  features: z.array(z.enum(FRANCHISE_PERMISSIONS)),
  active: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
const planList = z.object({ results: z.array(planAnswer) });

/** Runtime parser of InvoiceAnswer. */
export const invoiceAnswer: z.ZodType<InvoiceAnswer> = z.object({
  publicId: z.string(),
  valueCents: z.number(),
  dueDate: z.number(),
  paidAt: z.number().nullable(),
  method: z.enum(BILLING_TYPES).nullable(),
  status: z.enum(INVOICE_STATUSES),
  invoiceUrl: z.string().nullable(),
  createdAt: z.number(),
});
const invoiceList: z.ZodType<InvoicesAnswer> = z.object({ results: z.array(invoiceAnswer), cursor: z.string().nullable() });

const pixAnswer: z.ZodType<PixAnswer> = z.object({ qrCodeImage: z.string(), payload: z.string(), expiresAt: z.number().nullable() });

const accessMessage: z.ZodType<AccessMessage> = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("suspended") }),
    z.object({ kind: z.literal("pending") }),
    z.object({ kind: z.literal("expiring"), dueDate: z.number() }),
    z.object({ kind: z.literal("contact_administrator") }),
  ])
  .nullable();

/** Runtime parser of SubscriptionAnswer. */
export const subscriptionAnswer: z.ZodType<SubscriptionAnswer> = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  paymentStatus: z.enum(["paid", "pending"]),
  dueDate: z.number(),
  plan: planAnswer.nullable(),
  priceCents: z.number().nullable(),
  billingType: z.enum(BILLING_TYPES).nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  nextInvoice: invoiceAnswer.nullable(),
  message: accessMessage,
  franchise: z.boolean(),
  franchiseNotPaid: z.string().nullable().catch(null),
  valid: z.boolean(),
});

const subscribeAnswer: z.ZodType<SubscribeAnswer> = z.object({ subscription: subscriptionAnswer.nullable(), invoice: invoiceAnswer, pix: pixAnswer.nullable() });
const payInvoiceAnswer: z.ZodType<PayInvoiceAnswer> = z.object({ invoice: invoiceAnswer, pix: pixAnswer.nullable() });

/** Runtime parser of PublicInvoiceAnswer. */
export const publicInvoiceAnswer: z.ZodType<PublicInvoiceAnswer> = z.object({
  publicId: z.string(),
  valueCents: z.number(),
  dueDate: z.number(),
  paidAt: z.number().nullable(),
  method: z.enum(BILLING_TYPES).nullable(),
  status: z.enum(INVOICE_STATUSES),
  invoiceUrl: z.string().nullable(),
  createdAt: z.number(),
  companyName: z.string(),
  issuerName: z.string(),
  planName: z.string().nullable(),
  pix: pixAnswer.nullable(),
  sandbox: z.boolean(),
});

/** Query keys of billing. */
export const billingKeys = {
  all: ["billing"] as const,
  plans: () => ["billing", "plans"] as const,
  subscription: () => ["billing", "subscription"] as const,
  invoices: () => ["billing", "invoices"] as const,
  publicInvoice: (publicId: string) => ["billing", "public-invoice", publicId] as const,
};

/** GET /api/plans → the plans on sale. */
export const plansQuery = () =>
  queryOptions({
    queryKey: billingKeys.plans(),
    queryFn: ({ signal }) => api.call("GET", "/plans", planList, { signal }),
    select: (answer) => answer.results,
  });

/** GET /api/companies/subscription → the active company's subscription. */
export const subscriptionQuery = () =>
  queryOptions({
    queryKey: billingKeys.subscription(),
    queryFn: ({ signal }) => api.call("GET", "/companies/subscription", subscriptionAnswer, { signal }),
  });

/** GET /api/invoices?cursor= → pages of invoices, newest first. */
export const invoicesQuery = () =>
  infiniteQueryOptions({
    queryKey: billingKeys.invoices(),
    queryFn: ({ signal, pageParam }) => api.call("GET", "/invoices", invoiceList, { signal, query: { cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.cursor,
  });

/**
 * GET /api/billing/invoices/{publicId} (public) → the invoice. `pollMs` re-reads it while it is
 * unpaid (the checkout's live confirmation); 0 reads once.
 */
export const publicInvoiceQuery = (publicId: string, pollMs = 0) =>
  queryOptions({
    queryKey: billingKeys.publicInvoice(publicId),
    queryFn: ({ signal }) => api.call("GET", `/billing/invoices/${encodeURIComponent(publicId)}`, publicInvoiceAnswer, { signal }),
    refetchInterval: (query) => (pollMs > 0 && query.state.data?.status !== "paid" ? pollMs : false),
    retry: false,
  });

/** POST /api/companies/subscription → the invoice and, for PIX, its QR code. 400 `invalid_coupon` on `coupon`; card/holder field errors. */
export function subscribe(input: SubscribeInput): Promise<SubscribeAnswer> {
  return api.call("POST", "/companies/subscription", subscribeAnswer, { body: input });
}

/** PUT /api/companies/subscription/card → the subscription. */
export function updateCard(input: UpdateCardInput): Promise<void> {
  return api.send("PUT", "/companies/subscription/card", { body: input });
}

/** POST /api/companies/subscription/cancel. */
export function cancelSubscription(): Promise<void> {
  return api.send("POST", "/companies/subscription/cancel");
}

/** POST /api/billing/invoices/{publicId}/pay (public) → the invoice and, for PIX, its QR code. */
export function payInvoice(publicId: string, input: PayInvoiceInput): Promise<PayInvoiceAnswer> {
  return api.call("POST", `/billing/invoices/${encodeURIComponent(publicId)}/pay`, payInvoiceAnswer, { body: input });
}

/** POST /api/billing/sandbox/invoices/{publicId}/simulate-payment (sandbox provider only). */
export function simulatePayment(publicId: string): Promise<void> {
  return api.send("POST", `/billing/sandbox/invoices/${encodeURIComponent(publicId)}/simulate-payment`);
}
