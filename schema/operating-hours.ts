/**
 * A company's operating hours (spec /settings/operating-hours; issue 12): one row per company that
 * saved them (a company without a row is always open). The shapes of the JSON columns are the zod
 * schemas of schema/validation/operating-hours.ts. Tickets that arrived outside hours carry
 * `tickets.outside_hours_at` (migration 0013).
 */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps } from "./columns";
import type { OutsideHours, ScheduleException, WeeklySchedule } from "./validation/operating-hours";

export const operatingHours = sqliteTable("operating_hours", {
  companyId: text("company_id").primaryKey(),
  /** Off: always open; nothing is checked on inbound messages. */
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  /** JSON WeeklySchedule: per weekday the {open, close} ranges, local "HH:MM". */
  weekly: text("weekly", { mode: "json" }).$type<WeeklySchedule>().notNull(),
  /** JSON ScheduleException[]: dated days replacing their weekday (no ranges: closed). */
  exceptions: text("exceptions", { mode: "json" }).$type<ScheduleException[]>().notNull(),
  /** JSON OutsideHours: the message or flow for every connection, and per-connection overrides. */
  outside: text("outside", { mode: "json" }).$type<OutsideHours>().notNull(),
  ...timestamps,
});

export type OperatingHoursRow = typeof operatingHours.$inferSelect;
