/**
 * Shipping cycles (issue 10; spec §3 Shipping cycle, §9 cycle units): the time arithmetic of a
 * step's wait, enrolment (`enrolInCycle`, also called by the flow builder's "add to shipping cycle"
 * action and the webhooks' `add_to_cycle`), leaving cycles, and running one step for a contact.
 *
 * Enrolments and their timers live in the company's CycleScheduler Durable Object
 * (worker/durable-objects/cycle-scheduler.ts); the cycles themselves in D1 (`shipping_cycles`).
 * Every function takes the company id and filters on it.
 */
import { TZDate } from "@date-fns/tz";
import { addDays, addMonths } from "date-fns";
import { and, desc, eq, inArray } from "drizzle-orm";
import { connections, contacts, shippingCycles, tickets, type ConnectionRow, type ShippingCycleRow } from "../../schema";
import type { CycleEnrolAnswer, CycleWait, EnrolSkipReason, ShippingCycleAnswer } from "../../schema/validation/shipping-cycles";
import type { AppEnv } from "../env";
import { companyTimeZone } from "./contacts";
import { chunk } from "./cursor";
import type { Db } from "./db";
import { getDb } from "./db";
import { notFound } from "./errors";
import { reachableIdentity } from "./identities";
import { contactSessionOf } from "./realtime";
import { companyTicketFor } from "./company-tickets";

const SECOND = 1_000;

/**
 * The time `wait` after `from` (ms UTC). Seconds, minutes and hours are exact durations; a day is
 * the same wall-clock time on the next calendar day and a month the same day of the next month
 * (its last day when that day does not exist: Jan 31 + 1 month = Feb 28 or 29), both in `timeZone`
 * (IANA; across a DST change the wall-clock time is kept, so such a day lasts 23 or 25 hours).
 * An unknown time zone counts in UTC.
 */
export function addWait(from: number, wait: CycleWait, timeZone: string): number {
  switch (wait.unit) {
    case "second":
      return from + wait.value * SECOND;
    case "minute":
      return from + wait.value * 60 * SECOND;
    case "hour":
      return from + wait.value * 3600 * SECOND;
    case "day":
    case "month": {
      const zone = validZone(timeZone);
      const start = new TZDate(from, zone);
      const end = wait.unit === "day" ? addDays(start, wait.value) : addMonths(start, wait.value);
      return end.getTime();
    }
  }
}

function validZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** The company's CycleScheduler (one per company). */
export function cycleSchedulerOf(env: AppEnv, companyId: string) {
  return env.CYCLE_SCHEDULER.get(env.CYCLE_SCHEDULER.idFromName(companyId));
}

/** A cycle of the company, or 404 `not_found` 'Shipping cycle not found.'. */
export async function findCycle(db: Db, companyId: string, id: string): Promise<ShippingCycleRow> {
  const row = await db.query.shippingCycles.findFirst({ where: and(eq(shippingCycles.id, id), eq(shippingCycles.companyId, companyId)) });
  if (!row) throw notFound("Shipping cycle");
  return row;
}

/** A cycle as the API answers it (`flowNames`: the company's flow names by id; a deleted flow is null). */
export function presentCycle(row: ShippingCycleRow, flowNames: ReadonlyMap<string, string>, enrolledCount: number): ShippingCycleAnswer {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    steps: row.steps.map((step, index) => ({ index, flowId: step.flowId, flowName: flowNames.get(step.flowId) ?? null, wait: step.wait })),
    enrolledCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Enrols `contactIds` (contacts of `companyId`) in cycle `cycleId`: each one's first step runs its
 * wait from now. Skipped, with the reason: `not_found` (not a contact of the company), `opted_out`
 * (answered a stop word), `already_enrolled` (in the cycle and not done; a contact who finished it
 * starts again). Ids are taken once each, in order. Throws 404 when the cycle is not the company's.
 * Used by POST /api/shipping-cycles/{id}/contacts, the flow builder's action block and webhooks.
 */
export async function enrolInCycle(env: AppEnv, companyId: string, cycleId: string, contactIds: readonly string[]): Promise<CycleEnrolAnswer> {
  const db = getDb(env.DB);
  const cycle = await findCycle(db, companyId, cycleId);
  const ids = [...new Set(contactIds)];
  const found = new Map<string, number | null>();
  for (const part of chunk(ids, 90)) {
    const rows = await db
      .select({ id: contacts.id, optedOutAt: contacts.optedOutAt })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.id, part)));
    for (const row of rows) found.set(row.id, row.optedOutAt);
  }
  const skipped: { contactId: string; reason: EnrolSkipReason }[] = [];
  const eligible: string[] = [];
  for (const id of ids) {
    if (!found.has(id)) skipped.push({ contactId: id, reason: "not_found" });
    else if (found.get(id) !== null) skipped.push({ contactId: id, reason: "opted_out" });
    else eligible.push(id);
  }
  const first = cycle.steps[0];
  if (eligible.length === 0 || !first) return { enrolled: [], skipped };
  const timeZone = await companyTimeZone(db, companyId);
  const result = await cycleSchedulerOf(env, companyId).enrol({ companyId, cycleId, contactIds: eligible, firstAt: addWait(Date.now(), first.wait, timeZone), active: cycle.active });
  for (const id of result.already) skipped.push({ contactId: id, reason: "already_enrolled" });
  return { enrolled: result.enrolled, skipped };
}

/** Takes the contact out of every cycle of the company (opt-out); answers how many enrolments ended. */
export async function leaveAllCycles(env: AppEnv, companyId: string, contactId: string): Promise<number> {
  return cycleSchedulerOf(env, companyId).removeContact(contactId);
}

/**
 * What became of one step: its flow `started`; `skipped` (the contact cannot be reached on any
 * connection, or the flow has no published version: the cycle goes on to its next step);
 * `contact_gone` (the contact was deleted or opted out: the enrolment ends).
 */
/**
 * What running one step did. `started` names the run and the ContactSession it runs in
 * (`channel`, `externalId`), so the next step's wait can count from the run's last action.
 */
export type StepOutcome =
  | { status: "started"; runId: string; channel: string; externalId: string }
  | { status: "skipped"; reason: "unreachable" | "unpublished" }
  | { status: "contact_gone" };

/**
 * Runs one step: starts `flowId`'s published version for the contact, in its ContactSession, on the
 * connection of its newest ticket (else the company's first connection on a channel the contact
 * has an identity on), in its open or pending ticket there (a new pending ticket when it has none).
 * Throws only on storage or D1 failures (the scheduler retries).
 */
export async function runCycleStep(env: AppEnv, companyId: string, contactId: string, flowId: string, runId?: string): Promise<StepOutcome> {
  const db = getDb(env.DB);
  const contact = await db.query.contacts.findFirst({ where: and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)), columns: { id: true, phone: true, optedOutAt: true } });
  if (!contact || contact.optedOutAt !== null) return { status: "contact_gone" };
  const connection = await connectionFor(db, companyId, contactId);
  if (!connection) return { status: "skipped", reason: "unreachable" };
  const identity = await reachableIdentity(db, companyId, contactId, connection.channel);
  const externalId = identity?.externalId ?? contact.phone?.replace(/^\+/, "");
  if (!externalId) return { status: "skipped", reason: "unreachable" };
  const open = await db.query.tickets.findFirst({
    where: and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId), eq(tickets.connectionId, connection.id), inArray(tickets.status, ["pending", "open"])),
    orderBy: desc(tickets.createdAt),
  });
  const ticket = open ?? (await companyTicketFor(env, db, connection, contactId));
  const started = await contactSessionOf(env, companyId, connection.channel, externalId).startFlow({
    companyId,
    channel: connection.channel,
    externalId,
    connectionId: connection.id,
    ticketId: ticket.id,
    flowId,
    ...(runId ? { runId } : {}),
  });
  return started.ok ? { status: "started", runId: started.runId, channel: connection.channel, externalId } : { status: "skipped", reason: "unpublished" };
}

/** The connection a step reaches the contact on (see runCycleStep), or null. */
async function connectionFor(db: Db, companyId: string, contactId: string): Promise<ConnectionRow | null> {
  const latest = await db.query.tickets.findFirst({
    where: and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)),
    orderBy: desc(tickets.updatedAt),
    columns: { connectionId: true },
  });
  if (latest) {
    const connection = await db.query.connections.findFirst({ where: and(eq(connections.id, latest.connectionId), eq(connections.companyId, companyId)) });
    if (connection) return connection;
  }
  const companyConnections = await db.query.connections.findMany({ where: eq(connections.companyId, companyId), orderBy: connections.createdAt });
  for (const connection of companyConnections) {
    if (await reachableIdentity(db, companyId, contactId, connection.channel)) return connection;
  }
  return null;
}

