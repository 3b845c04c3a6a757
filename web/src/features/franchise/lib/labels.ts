/**
 * Translated labels of the franchise area (issue 14): the franchise-grantable features of spec §6
 * (the role checklist), plans (spec §9), payment and invoice states, hostname states.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FranchisePermission } from "../../../../../schema/permissions";

/** The franchise-grantable features (spec §6), with the words of the company navigation. */
export const FEATURE_LABELS: Record<FranchisePermission, MessageDescriptor> = {
  internal_chats: msg`Internal chat`,
  broadcasts: msg`Broadcasts`,
  shipping_cycles: msg`Shipping cycles`,
  crm: msg`CRM`,
  keywords: msg`Keywords`,
  webhooks: msg`Webhooks`,
  quick_messages: msg`Quick messages`,
  flow: msg`Flow builder`,
  integration: msg`Integration (API)`,
};

/** Plans a franchise sets on its companies (schema/validation/franchise.ts FRANCHISE_COMPANY_PLANS). */
export const PLAN_LABELS: Record<string, MessageDescriptor> = {
  trial: msg`Trial`,
  monthly: msg`Monthly`,
  semiannual: msg`Semiannual`,
  yearly: msg`Yearly`,
  lifetime: msg`Lifetime`,
};

/** Payment and invoice states (spec §4; billing's invoice states). */
export const STATUS_LABELS: Record<string, MessageDescriptor> = {
  trial: msg`Trial`,
  paid: msg`Paid`,
  pending: msg`Pending`,
  unpaid: msg`Unpaid`,
  overdue: msg`Overdue`,
  refunded: msg`Refunded`,
  cancelled: msg`Cancelled`,
  suspended: msg`Suspended`,
  active: msg({ message: "Active", context: "company payment status" }),
};

/** Custom hostname states worth a word (Cloudflare's `status`; "local" for `*.localhost`). */
export const HOSTNAME_STATUS_LABELS: Record<string, MessageDescriptor> = {
  pending: msg`Waiting for DNS`,
  active: msg({ message: "Active", context: "hostname status" }),
  local: msg`Local (no DNS needed)`,
  blocked: msg`Blocked`,
  moved: msg`Moved`,
  deleted: msg`Deleted`,
};

/** The label of `value` in `labels`, or the value itself when the server sends one this build does not know. */
export function labelOf(i18n: I18n, labels: Record<string, MessageDescriptor>, value: string): string {
  const descriptor = labels[value];
  return descriptor ? i18n._(descriptor) : value;
}
