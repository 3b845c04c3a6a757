import { describe, expect, it } from "vitest";
import type { SubscriptionAnswer } from "../../../../../schema/validation/billing";
import { billingNotice } from "./notices";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 12);
const company = { paymentStatus: "paid" as const, dueDate: NOW + 30 * DAY, plan: "monthly" as const, subscriptionValid: true };
const subscription = (over: Partial<SubscriptionAnswer>): SubscriptionAnswer => ({
  status: "active",
  paymentStatus: "paid",
  dueDate: NOW + 30 * DAY,
  plan: null,
  priceCents: null,
  billingType: null,
  card: null,
  nextInvoice: null,
  message: null,
  franchise: false,
  franchiseNotPaid: null,
  valid: true,
  ...over,
});
const invoice = { publicId: "inv_abc", valueCents: 4990, dueDate: NOW, paidAt: null, method: "PIX" as const, status: "pending" as const, invoiceUrl: null, createdAt: NOW };

describe("the payment notice above the app (spec §4, §8)", () => {
  it("a suspended company is told so, with Pay now to its open invoice", () => {
    const notice = billingNotice(company, subscription({ status: "suspended", valid: false, message: { kind: "suspended" }, nextInvoice: invoice }), NOW);
    expect(notice).toMatchObject({ kind: "suspended", payHref: "/checkout/inv_abc" });
  });

  it("without an open invoice the way out is the plan choice (on /failed-subscription when the app is closed)", () => {
    expect(billingNotice(company, subscription({ valid: false, message: { kind: "suspended" } }), NOW)?.payHref).toBe("/failed-subscription");
    expect(billingNotice(company, subscription({ status: "pending", paymentStatus: "pending", message: { kind: "pending" } }), NOW)).toMatchObject({ kind: "pending", payHref: "/settings/subscription" });
  });

  it("the expiry warning carries the server's due date; a trial says so", () => {
    const due = NOW + 3 * DAY;
    expect(billingNotice(company, subscription({ status: "trial", message: { kind: "expiring", dueDate: due } }), NOW)).toMatchObject({ kind: "expiring", dueDate: due, trial: true });
  });

  it("a franchise company gets no payment link (it contacts its administrator)", () => {
    const notice = billingNotice(company, subscription({ franchise: true, valid: false, message: { kind: "suspended" }, nextInvoice: invoice }), NOW);
    expect(notice).toMatchObject({ kind: "suspended", franchise: true, payHref: null });
    expect(billingNotice(company, subscription({ franchise: true, message: { kind: "contact_administrator" } }), NOW)).toMatchObject({ kind: "contact_administrator", payHref: null });
  });

  it("without the server's answer, the company's own fields decide", () => {
    expect(billingNotice({ ...company, subscriptionValid: false, paymentStatus: "unpaid" }, undefined, NOW)?.kind).toBe("suspended");
    expect(billingNotice({ ...company, paymentStatus: "pending" }, undefined, NOW)?.kind).toBe("pending");
    expect(billingNotice({ ...company, dueDate: NOW + 2 * DAY }, undefined, NOW)?.kind).toBe("expiring");
    expect(billingNotice({ ...company, dueDate: NOW + 2 * DAY, plan: "lifetime" }, undefined, NOW)).toBeNull();
    expect(billingNotice(company, undefined, NOW)).toBeNull();
    expect(billingNotice(company, subscription({}), NOW)).toBeNull();
  });
});
