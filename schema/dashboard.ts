/**
 * The dashboard's maintained counters (issue 12 "Dashboard"; spec §2 Dashboard): one row per company
 * and local day, written in the same D1 batch as the change it counts (worker/lib/dashboard.ts), so
 * GET /api/dashboard reads at most 367 rows per range instead of counting tickets and contacts.
 *
 * `day` is the company's local date (YYYY-MM-DD, its time zone at the moment of the write: a later
 * change of time zone does not move older days). Durations are kept as histograms: a JSON object
 * from a bucket (whole seconds, rounded down to two significant digits above 99 s: 0…99, 100, 110,
 * …, 990, 1000, 1100, …) to how many samples fell in it, so medians and p90 over any range are read
 * from the rows without keeping every sample.
 */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** A duration histogram: bucket (seconds, as a string key) → count. */
export type DurationHistogram = { [bucket: string]: number };

export const dashboardDays = sqliteTable(
  "dashboard_days",
  {
    companyId: text("company_id").notNull(),
    /** The company's local date, YYYY-MM-DD. */
    day: text("day").notNull(),
    /** Tickets the customer started (spec "receptive"). */
    ticketsReceptive: integer("tickets_receptive").notNull().default(0),
    /** Tickets the company started: broadcasts, flows started by members or the API, members (spec "active"). */
    ticketsActive: integer("tickets_active").notNull().default(0),
    /** Contacts added that day (by a customer's first message, a member, an import, the API). */
    newContacts: integer("new_contacts").notNull().default(0),
    /** First responses given that day (a member's or the API's first message in a customer's ticket). */
    firstResponses: integer("first_responses").notNull().default(0),
    /** Their durations since the ticket opened, as a histogram (null before the first one). */
    firstResponseHist: text("first_response_hist", { mode: "json" }).$type<DurationHistogram | null>(),
    /** Tickets closed that day. */
    resolutions: integer("resolutions").notNull().default(0),
    /** Ticket open → close durations of those closes, as a histogram. */
    resolutionHist: text("resolution_hist", { mode: "json" }).$type<DurationHistogram | null>(),
  },
  // The dashboard reads a company's range of days through the primary key.
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);

/** Custom events recorded (the flow's action block, schema/custom-events.ts), per company, local day and name. */
export const dashboardEvents = sqliteTable(
  "dashboard_events",
  {
    companyId: text("company_id").notNull(),
    day: text("day").notNull(),
    name: text("name").notNull(),
    count: integer("count").notNull().default(0),
  },
  // A company's range of days, every name, through the primary key.
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.name] })],
);

export type DashboardDayRow = typeof dashboardDays.$inferSelect;
