/**
 * Shipping cycles (worker/routes/shipping-cycles.ts; spec §2 /shipping-cycle, §3 Shipping cycle,
 * §9 cycle units; permissions `shipping_cycles` and `contacts_shipping_cycles`): the list, one
 * cycle, create, edit, delete, enrolment of contacts and removal, and a contact's enrolments
 * (GET /api/contacts/{id}/shipping-cycles). Answers are parsed at the edge against the shared types
 * of schema/validation/shipping-cycles.ts.
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { isApiError } from "@/lib/api";
import { flowSummaryList } from "@/lib/answers";
import {
  CYCLE_UNITS,
  ENROL_SKIP_REASONS,
  ENROLMENT_STATUSES,
  type ContactCycleAnswer,
  type CycleEnrolAnswer,
  type ShippingCycleAnswer,
  type ShippingCycleInput,
  type ShippingCycleUpdate,
} from "../../../../../schema/validation/shipping-cycles";

const cycleWait = z.object({ value: z.number(), unit: z.enum(CYCLE_UNITS) });

/** One cycle as answered by GET/POST/PUT. */
export const shippingCycleAnswer: z.ZodType<ShippingCycleAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  steps: z.array(z.object({ index: z.number(), flowId: z.string(), flowName: z.string().nullable(), wait: cycleWait })),
  enrolledCount: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** POST /api/shipping-cycles/{id}/contacts → {enrolled, skipped}. */
export const cycleEnrolAnswer: z.ZodType<CycleEnrolAnswer> = z.object({
  enrolled: z.array(z.string()),
  skipped: z.array(z.object({ contactId: z.string(), reason: z.enum(ENROL_SKIP_REASONS) })),
});

/** One enrolment of a contact. */
export const contactCycleAnswer: z.ZodType<ContactCycleAnswer> = z.object({
  cycleId: z.string(),
  cycleName: z.string(),
  cycleActive: z.boolean(),
  status: z.enum(ENROLMENT_STATUSES),
  stepIndex: z.number(),
  stepCount: z.number(),
  nextRunAt: z.number().nullable(),
  lastRunAt: z.number().nullable(),
  enrolledAt: z.number(),
});

/** Query keys of the shipping cycles feature. */
export const cycleKeys = {
  all: ["shipping-cycles"] as const,
  list: () => [...cycleKeys.all, "list"] as const,
  detail: (id: string) => [...cycleKeys.all, "detail", id] as const,
  contact: (contactId: string) => [...cycleKeys.all, "contact", contactId] as const,
};

/** GET /api/shipping-cycles → every cycle of the company. */
export const cyclesQuery = () =>
  queryOptions({ queryKey: cycleKeys.list(), queryFn: ({ signal }) => api.call("GET", "/shipping-cycles", z.array(shippingCycleAnswer), { signal }) });

/** GET /api/shipping-cycles/{id} → the cycle; 404 for another company's. */
export const cycleQuery = (id: string) =>
  queryOptions({
    queryKey: cycleKeys.detail(id),
    queryFn: ({ signal }) => api.call("GET", `/shipping-cycles/${encodeURIComponent(id)}`, shippingCycleAnswer, { signal }),
    retry: (count, error) => !(isApiError(error) && (error.status === 404 || error.status === 400)) && count < 2,
  });

/** GET /api/contacts/{id}/shipping-cycles → the contact's enrolments, newest first. */
export const contactCyclesQuery = (contactId: string) =>
  queryOptions({
    queryKey: cycleKeys.contact(contactId),
    queryFn: ({ signal }) => api.call("GET", `/contacts/${encodeURIComponent(contactId)}/shipping-cycles`, z.array(contactCycleAnswer), { signal }),
    retry: false,
  });

/** POST /api/shipping-cycles → 201 the cycle. */
export function createCycle(input: ShippingCycleInput): Promise<ShippingCycleAnswer> {
  return api.call("POST", "/shipping-cycles", shippingCycleAnswer, { body: input });
}

/** PUT /api/shipping-cycles/{id} → the cycle (every key optional). */
export function updateCycle(id: string, input: ShippingCycleUpdate): Promise<ShippingCycleAnswer> {
  return api.call("PUT", `/shipping-cycles/${encodeURIComponent(id)}`, shippingCycleAnswer, { body: input });
}

/** DELETE /api/shipping-cycles/{id} → 204. */
export function deleteCycle(id: string): Promise<void> {
  return api.send("DELETE", `/shipping-cycles/${encodeURIComponent(id)}`);
}

/** POST /api/shipping-cycles/{id}/contacts {contactIds (1..500)} → {enrolled, skipped}. */
export function enrolContacts(cycleId: string, contactIds: string[]): Promise<CycleEnrolAnswer> {
  return api.call("POST", `/shipping-cycles/${encodeURIComponent(cycleId)}/contacts`, cycleEnrolAnswer, { body: { contactIds } });
}

/** DELETE /api/shipping-cycles/{id}/contacts/{contactId} → 204: the contact leaves the cycle. */
export function removeEnrolment(cycleId: string, contactId: string): Promise<void> {
  return api.send("DELETE", `/shipping-cycles/${encodeURIComponent(cycleId)}/contacts/${encodeURIComponent(contactId)}`);
}

/**
 * GET /api/flows → the flows a step may start: only published ones run (a draft never starts), so
 * the editor offers those; empty without the `flow` permission.
 */
export const cycleFlowsQuery = () =>
  queryOptions({
    queryKey: [...cycleKeys.all, "flows"] as const,
    queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }),
    staleTime: 30_000,
    retry: false,
  });
