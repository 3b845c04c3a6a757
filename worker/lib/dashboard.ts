/**
 * The dashboard's figures (issue 12 "Dashboard"; spec §2 Dashboard): the statements that keep its
 * daily counters (schema/dashboard.ts) and the read behind GET /api/dashboard.
 *
 * Writers call the `*Statement(s)` functions and run what they answer in the SAME D1 batch as the
 * change they count (a ticket opened, contacts added, a first response, a close, a custom event), so
 * a counter never drifts from its rows. Each counter is keyed by the company's local day at the
 * moment of the write (its time zone, cached here for a minute per isolate).
 *
 * Counted:
 * - attendances: tickets opened, split by `tickets.origin` into receptive (the customer's message
 *   opened it) and active (the company started it: broadcasts, shipping cycles, flows started by
 *   members or the API, a member);
 * - new contacts: contacts added (a later deletion does not take them back: it is what happened
 *   that day);
 * - first response: from the ticket's creation to the first message of a member (or the API) in a
 *   ticket the customer started; flows and greetings do not count;
 * - resolution: from the ticket's creation to its close (every close, a reopened ticket counts again);
 * - custom events by name (the flow's action block).
 *
 * Durations are histograms of whole seconds (`durationBucket`); a median or p90 is the nearest-rank
 * value of the range's merged histogram (`percentile`), exact to the second under 100 s and to two
 * significant digits above (e.g. 125 s counts as 120 s).
 */
import { and, between, desc, eq, sql, type SQL } from "drizzle-orm";
import { companies, counters, dashboardDays, dashboardEvents, tickets, type DurationHistogram } from "../../schema";
import type { DashboardAnswer, DashboardDay } from "../../schema/validation/dashboard";
import { CONTACTS_COUNTER, contactCount, runBatch, type Statement } from "./contacts";
import type { Db } from "./db";
import { remembered } from "./memo";

/** How long a company's time zone is trusted from the isolate's cache (ms). */
const TIME_ZONE_TTL_MS = 60_000;
const zoneCache = new Map<string, { timeZone: string; until: number }>();
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The days `localDay` answered, by time zone and UTC minute (ms / 60,000, floored): no zone's offset
 * today has seconds, so a local day cannot change inside a UTC minute, and the messages of one minute
 * share one `formatToParts` (issue 16: it was 0.4 % of a message's thread). At most DAYS_REMEMBERED
 * entries (`remembered`).
 */
const days = new Map<string, string>();
const DAYS_REMEMBERED = 1_000;

/** The local date (YYYY-MM-DD) of instant `ms` (UTC) in IANA `timeZone` (UTC when unknown). */
export function localDay(ms: number, timeZone: string): string {
  return remembered(days, DAYS_REMEMBERED, `${timeZone}:${Math.floor(ms / 60_000)}`, () => formatDay(ms, timeZone));
}

/** `localDay` without its memory: one `formatToParts` of `ms` in `timeZone` (UTC when unknown). */
function formatDay(ms: number, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    } catch {
      format = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit" });
    }
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The company's IANA time zone (cached for TIME_ZONE_TTL_MS per isolate; UTC for an unknown company). */
export async function timeZoneOf(db: Db, companyId: string): Promise<string> {
  const cached = zoneCache.get(companyId);
  const at = Date.now();
  if (cached && cached.until > at) return cached.timeZone;
  const row = await db.query.companies.findFirst({ where: eq(companies.id, companyId), columns: { timezone: true } });
  const timeZone = row?.timezone ?? "UTC";
  zoneCache.set(companyId, { timeZone, until: at + TIME_ZONE_TTL_MS });
  return timeZone;
}

/** The company's local day of instant `at`. */
export async function companyDay(db: Db, companyId: string, at: number): Promise<string> {
  return localDay(at, await timeZoneOf(db, companyId));
}

/**
 * The histogram bucket of a duration: whole seconds, exact under 100 s, rounded down to two
 * significant digits above (100…990 by 10, 1000…9900 by 100, …). Negative durations count as 0.
 */
export function durationBucket(ms: number): number {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 100) return seconds;
  const step = 10 ** (Math.floor(Math.log10(seconds)) - 1);
  return Math.floor(seconds / step) * step;
}

/**
 * The nearest-rank percentile `p` (0 < p ≤ 1) of a merged histogram, in ms (the bucket's lower
 * edge × 1000), or null when it holds no sample.
 */
export function percentile(histogram: ReadonlyMap<number, number>, p: number): number | null {
  let total = 0;
  for (const n of histogram.values()) total += n;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= rank) return bucket * 1000;
  }
  return null;
}

/** Adds a stored histogram into `into`. */
function merge(into: Map<number, number>, histogram: DurationHistogram | null | undefined): void {
  if (!histogram) return;
  for (const [key, n] of Object.entries(histogram)) {
    const bucket = Number(key);
    if (Number.isFinite(bucket) && typeof n === "number") into.set(bucket, (into.get(bucket) ?? 0) + n);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing (always in the batch of the change counted)
// ---------------------------------------------------------------------------------------------

type DayCounts = { ticketsReceptive?: number; ticketsActive?: number; newContacts?: number | SQL };

/**
 * A statement adding `counts` to the company's row of `day` (created at zero when missing).
 * `newContacts` may be SQL evaluated inside the batch (an import counts the rows it really inserted).
 */
export function dayCountsStatement(companyId: string, day: string, counts: DayCounts): Statement {
  const r = counts.ticketsReceptive ?? 0;
  const a = counts.ticketsActive ?? 0;
  const n = counts.newContacts ?? 0;
  return sql`INSERT INTO ${dashboardDays} (company_id, day, tickets_receptive, tickets_active, new_contacts) VALUES (${companyId}, ${day}, ${r}, ${a}, (${n}))
    ON CONFLICT (company_id, day) DO UPDATE SET tickets_receptive = tickets_receptive + excluded.tickets_receptive, tickets_active = tickets_active + excluded.tickets_active, new_contacts = new_contacts + excluded.new_contacts`;
}

/**
 * A statement counting one duration of `kind` in the company's row of `day`, only when `guard`
 * (SQL, evaluated in the batch BEFORE the change it counts) holds: that keeps a retried or
 * concurrent write from counting twice.
 */
function durationStatement(companyId: string, day: string, kind: "first_response" | "resolution", ms: number, guard: SQL): Statement {
  const key = String(durationBucket(ms));
  const path = `$."${key}"`;
  if (kind === "first_response") {
    return sql`INSERT INTO ${dashboardDays} (company_id, day, first_responses, first_response_hist) SELECT ${companyId}, ${day}, 1, json_object(${key}, 1) WHERE ${guard}
      ON CONFLICT (company_id, day) DO UPDATE SET first_responses = first_responses + 1, first_response_hist = json_set(coalesce(first_response_hist, '{}'), ${path}, coalesce(json_extract(first_response_hist, ${path}), 0) + 1)`;
  }
  return sql`INSERT INTO ${dashboardDays} (company_id, day, resolutions, resolution_hist) SELECT ${companyId}, ${day}, 1, json_object(${key}, 1) WHERE ${guard}
    ON CONFLICT (company_id, day) DO UPDATE SET resolutions = resolutions + 1, resolution_hist = json_set(coalesce(resolution_hist, '{}'), ${path}, coalesce(json_extract(resolution_hist, ${path}), 0) + 1)`;
}

/**
 * The statement counting a ticket opened by `origin` on the company's local `day` (from
 * `companyDay(db, companyId, at)`); run it in the batch of the insert. A drizzle query, so
 * `db.batch([insert.returning(), it])` works as well as runBatch. (Synchronous on purpose: a query
 * returned from an async function would run on its own.)
 */
export function ticketOpenedStatement(db: Db, companyId: string, origin: "customer" | "company", day: string) {
  const receptive = origin === "customer" ? 1 : 0;
  return db
    .insert(dashboardDays)
    .values({ companyId, day, ticketsReceptive: receptive, ticketsActive: 1 - receptive })
    .onConflictDoUpdate({
      target: [dashboardDays.companyId, dashboardDays.day],
      set: { ticketsReceptive: sql`${dashboardDays.ticketsReceptive} + ${receptive}`, ticketsActive: sql`${dashboardDays.ticketsActive} + ${1 - receptive}` },
    });
}

/** The statement counting `count` contacts added at `at` (a number, or SQL evaluated in the batch). */
export async function contactsAddedStatement(db: Db, companyId: string, count: number | SQL, at: number): Promise<Statement> {
  return dayCountsStatement(companyId, await companyDay(db, companyId, at), { newContacts: count });
}

/** The statement counting one custom event `name` recorded at `at` (in the batch of its row). */
export async function customEventStatement(db: Db, companyId: string, name: string, at: number): Promise<Statement> {
  const day = await companyDay(db, companyId, at);
  return sql`INSERT INTO ${dashboardEvents} (company_id, day, name, count) VALUES (${companyId}, ${day}, ${name}, 1) ON CONFLICT (company_id, day, name) DO UPDATE SET count = count + 1`;
}

/** The ticket facts the response and resolution counters need. */
type TicketFacts = { id: string; companyId: string; createdAt: number };

/**
 * Records the first response of a customer's ticket at `at` (a member's or the API's message): one
 * batch that counts its duration and sets `tickets.first_response_at`, both only while it is unset
 * and the customer started the ticket. Later messages change nothing (and cost one read).
 */
export async function recordFirstResponse(db: Db, companyId: string, ticketId: string, at: number): Promise<void> {
  const ticket = await db.query.tickets.findFirst({
    where: and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)),
    columns: { id: true, companyId: true, createdAt: true, origin: true, firstResponseAt: true },
  });
  if (!ticket || ticket.origin !== "customer" || ticket.firstResponseAt !== null) return;
  const guard = sql`EXISTS (SELECT 1 FROM tickets WHERE id = ${ticket.id} AND company_id = ${companyId} AND origin = 'customer' AND first_response_at IS NULL)`;
  const day = await companyDay(db, companyId, at);
  await runBatch(db, [
    durationStatement(companyId, day, "first_response", at - ticket.createdAt, guard),
    sql`UPDATE tickets SET first_response_at = ${at} WHERE id = ${ticket.id} AND company_id = ${companyId} AND origin = 'customer' AND first_response_at IS NULL`,
  ]);
}

/**
 * Closes a ticket at `closedAt` and counts its resolution, in one batch, only when it was not closed
 * already (a second close, or a race between two, counts once). The caller then publishes the change.
 */
export async function recordResolution(db: Db, ticket: TicketFacts, closedAt: number): Promise<void> {
  const guard = sql`EXISTS (SELECT 1 FROM tickets WHERE id = ${ticket.id} AND company_id = ${ticket.companyId} AND status != 'closed')`;
  const day = await companyDay(db, ticket.companyId, closedAt);
  await runBatch(db, [
    durationStatement(ticket.companyId, day, "resolution", closedAt - ticket.createdAt, guard),
    sql`UPDATE tickets SET status = 'closed', closed_at = ${closedAt}, updated_at = ${closedAt} WHERE id = ${ticket.id} AND company_id = ${ticket.companyId} AND status != 'closed'`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** Every date from `from` to `to` (YYYY-MM-DD, inclusive), in order. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** How many custom event names the answer lists (the most frequent first). */
export const CUSTOM_EVENT_NAMES_SHOWN = 50;

/**
 * The dashboard of `companyId` for the local days `from`…`to` (inclusive, YYYY-MM-DD, already
 * checked): totals, the custom events by name (most frequent first, at most 50), medians and p90
 * of the durations, and one entry per day (days without activity hold zeros).
 */
export async function loadDashboard(db: Db, companyId: string, from: string, to: string): Promise<DashboardAnswer> {
  // One D1 round trip for the four reads (a batch runs them in one call, in one snapshot).
  const [rows, events, eventDays, counter] = await db.batch([
    db
      .select()
      .from(dashboardDays)
      .where(and(eq(dashboardDays.companyId, companyId), between(dashboardDays.day, from, to))),
    db
      .select({ name: dashboardEvents.name, count: sql<number>`sum(${dashboardEvents.count})` })
      .from(dashboardEvents)
      .where(and(eq(dashboardEvents.companyId, companyId), between(dashboardEvents.day, from, to)))
      .groupBy(dashboardEvents.name)
      .orderBy(desc(sql`sum(${dashboardEvents.count})`), dashboardEvents.name)
      .limit(CUSTOM_EVENT_NAMES_SHOWN),
    db
      .select({ day: dashboardEvents.day, count: sql<number>`sum(${dashboardEvents.count})` })
      .from(dashboardEvents)
      .where(and(eq(dashboardEvents.companyId, companyId), between(dashboardEvents.day, from, to)))
      .groupBy(dashboardEvents.day),
    db
      .select({ value: counters.value })
      .from(counters)
      .where(and(eq(counters.companyId, companyId), eq(counters.name, CONTACTS_COUNTER))),
  ]);
  // The counter row is created from one real count the first time (contactCount).
  const contacts = counter[0]?.value ?? (await contactCount(db, companyId));
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const eventsByDay = new Map(eventDays.map((e) => [e.day, Number(e.count)]));
  const firstAll = new Map<number, number>();
  const resolutionAll = new Map<number, number>();
  let receptive = 0;
  let active = 0;
  let newContacts = 0;
  const series: DashboardDay[] = daysBetween(from, to).map((day) => {
    const row = byDay.get(day);
    const first = new Map<number, number>();
    const resolution = new Map<number, number>();
    merge(first, row?.firstResponseHist);
    merge(resolution, row?.resolutionHist);
    merge(firstAll, row?.firstResponseHist);
    merge(resolutionAll, row?.resolutionHist);
    receptive += row?.ticketsReceptive ?? 0;
    active += row?.ticketsActive ?? 0;
    newContacts += row?.newContacts ?? 0;
    return {
      date: day,
      attendances: (row?.ticketsReceptive ?? 0) + (row?.ticketsActive ?? 0),
      receptive: row?.ticketsReceptive ?? 0,
      active: row?.ticketsActive ?? 0,
      newContacts: row?.newContacts ?? 0,
      customEvents: eventsByDay.get(day) ?? 0,
      firstResponseMedianMs: percentile(first, 0.5),
      resolutionMedianMs: percentile(resolution, 0.5),
    };
  });
  let firstCount = 0;
  for (const n of firstAll.values()) firstCount += n;
  let resolutionCount = 0;
  for (const n of resolutionAll.values()) resolutionCount += n;
  return {
    from,
    to,
    attendances: receptive + active,
    receptive,
    active,
    contacts,
    newContacts,
    customEvents: events.map((e) => ({ name: e.name, count: Number(e.count) })),
    firstResponse: { count: firstCount, medianMs: percentile(firstAll, 0.5), p90Ms: percentile(firstAll, 0.9) },
    resolution: { count: resolutionCount, medianMs: percentile(resolutionAll, 0.5), p90Ms: percentile(resolutionAll, 0.9) },
    series,
  };
}
