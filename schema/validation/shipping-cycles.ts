/**
 * Inputs and answers of shipping cycles (issue 10 "Shipping cycles"; spec §2 /shipping-cycle, §3
 * Shipping cycle, §9 cycle units). Pure zod and types, shared by the worker (request parsing) and
 * the web (forms).
 *
 * A cycle is an ordered list of steps; each step starts its flow `wait` after the last action of the
 * previous step (the first step: `wait` after enrolment). Units `second|minute|hour|day|month`;
 * "month" is the same day of the next month (its last day when that day does not exist), in the
 * company's time zone.
 *
 * Reason codes (the values of `error.fields` in a 400): `required`, `too_long`, `too_many`,
 * `invalid_id`, `invalid_type`, `invalid_unit`, `too_small`, `too_large`, `not_integer`.
 */
import { z } from "zod";
import { idSchema } from "./common";

/** Units of a step's wait (spec §9 "Cycle units"). */
export const CYCLE_UNITS = ["second", "minute", "hour", "day", "month"] as const;
export type CycleUnit = (typeof CYCLE_UNITS)[number];

/** At most this many steps per cycle. */
export const MAX_CYCLE_STEPS = 50;
/** At most this many contacts per enrolment call. */
export const MAX_ENROL_CONTACTS = 500;
/** Upper bound of a wait's value, whatever the unit (a year in days; 10,000 for the small units). */
export const MAX_WAIT_VALUE = 100_000;

const name = z.string({ error: "required" }).trim().min(1, { error: "required" }).max(100, { error: "too_long" });

/** A step's wait: `value` (whole number, 0..100,000) of `unit`. */
export const cycleWaitInput = z.object({
  value: z
    .number({ error: "invalid_type" })
    .int({ error: "not_integer" })
    .min(0, { error: "too_small" })
    .max(MAX_WAIT_VALUE, { error: "too_large" }),
  unit: z.enum(CYCLE_UNITS, { error: "invalid_unit" }),
});
export type CycleWait = z.infer<typeof cycleWaitInput>;

/** One step: the flow (a flow of the company; 400 `steps.N.flowId: invalid_id` otherwise) and its wait. */
export const cycleStepInput = z.object({
  flowId: z.string({ error: "required" }).min(1, { error: "required", abort: true }).uuid({ error: "invalid_id" }),
  wait: cycleWaitInput,
});
export type CycleStepInput = z.infer<typeof cycleStepInput>;

const steps = z.array(cycleStepInput, { error: "invalid_type" }).min(1, { error: "required" }).max(MAX_CYCLE_STEPS, { error: "too_many" });

/** POST /api/shipping-cycles {name, active = true, steps (1..50)}. */
export const shippingCycleInput = z.object({
  name,
  active: z.boolean({ error: "invalid_type" }).default(true),
  steps,
});
export type ShippingCycleInput = z.input<typeof shippingCycleInput>;

/**
 * PUT /api/shipping-cycles/{id}: every key optional. Replacing `steps` keeps each enrolment at its
 * step index (a contact past the new last step is done). `active: false` holds every enrolment
 * (no step runs); `active: true` resumes them, a step whose time passed runs at once.
 */
export const shippingCycleUpdate = z.object({
  name: name.optional(),
  active: z.boolean({ error: "invalid_type" }).optional(),
  steps: steps.optional(),
});
export type ShippingCycleUpdate = z.input<typeof shippingCycleUpdate>;

/** POST /api/shipping-cycles/{id}/contacts {contactIds (1..500)}. */
export const cycleEnrolInput = z.object({
  contactIds: z.array(idSchema, { error: "invalid_type" }).min(1, { error: "required" }).max(MAX_ENROL_CONTACTS, { error: "too_many" }),
});
export type CycleEnrolInput = z.infer<typeof cycleEnrolInput>;

/** One step as answered: its position (0-based), flow and wait. `flowName` is null when the flow was deleted. */
export type CycleStepAnswer = { index: number; flowId: string; flowName: string | null; wait: CycleWait };

/** GET /api/shipping-cycles (array) and GET/POST/PUT /api/shipping-cycles/{id}. Times ms UTC. */
export type ShippingCycleAnswer = {
  id: string;
  name: string;
  active: boolean;
  steps: CycleStepAnswer[];
  /** Enrolments not yet done (waiting, running or held). */
  enrolledCount: number;
  createdAt: number;
  updatedAt: number;
};

/** Why a contact of an enrolment call was not enrolled. */
export const ENROL_SKIP_REASONS = ["not_found", "opted_out", "already_enrolled"] as const;
export type EnrolSkipReason = (typeof ENROL_SKIP_REASONS)[number];

/** POST /api/shipping-cycles/{id}/contacts → 200 {enrolled, skipped}. */
export type CycleEnrolAnswer = { enrolled: string[]; skipped: { contactId: string; reason: EnrolSkipReason }[] };

/**
 * State of one enrolment: `waiting` for its next step's time, `held` while the cycle is inactive,
 * `done` after its last step ran (kept for history).
 */
export const ENROLMENT_STATUSES = ["waiting", "held", "done"] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

/**
 * GET /api/contacts/{id}/shipping-cycles → ContactCycleAnswer[] newest first. `stepIndex`: the next
 * step to run (0-based; equals `stepCount` when done); `nextRunAt`: when it runs (ms UTC), null when
 * held or done; `lastRunAt`: when the last step ran, null before the first.
 */
export type ContactCycleAnswer = {
  cycleId: string;
  cycleName: string;
  cycleActive: boolean;
  status: EnrolmentStatus;
  stepIndex: number;
  stepCount: number;
  nextRunAt: number | null;
  lastRunAt: number | null;
  enrolledAt: number;
};
