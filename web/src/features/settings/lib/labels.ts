/** Translated labels of the company's subscription values (spec §3 Company, §4 Payment status, §9 Plans). */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { PaymentStatus, Plan } from "../../../../../schema/companies";

/** Plan names (spec §9: monthly, semiannual, yearly, lifetime; plus the trial). */
export const PLAN_LABELS: Record<Plan, MessageDescriptor> = {
  trial: msg`Trial`,
  monthly: msg`Monthly`,
  semiannual: msg`Semiannual`,
  yearly: msg`Yearly`,
  lifetime: msg`Lifetime`,
};

/** Payment status names (spec §4: paid, pending; plus trial and unpaid). */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, MessageDescriptor> = {
  trial: msg`Trial`,
  paid: msg`Paid`,
  pending: msg`Pending`,
  unpaid: msg`Unpaid`,
};
