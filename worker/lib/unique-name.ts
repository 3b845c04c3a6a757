/**
 * "Uniqueness: name" (spec §5; issue 9 "The same rule everywhere"): a company's quick messages,
 * CRM columns, folders (within one parent), keywords and connections each have names unique in
 * the company, compared case-insensitively (SQLite `lower()`, as tags and roles compare them). A
 * clash answers 409 `name_in_use` 'This name is already in use.' naming the field. The check runs
 * before writing; the unique indexes of migration 0005 (on `lower(name)`) catch a race, which
 * `isUniqueViolation` turns into the same answer.
 */
import { and, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./db";
import { isUniqueViolation } from "./db";
import { AppError } from "./errors";

/** 409 `name_in_use` 'This name is already in use.' with `fields[field] = "name_in_use"`. */
export function nameInUse(field = "name"): AppError {
  return new AppError("name_in_use", "This name is already in use.", { [field]: "name_in_use" });
}

/** A table with the columns the name check reads. */
type NamedTable = SQLiteTable & { id: SQLiteColumn; companyId: SQLiteColumn; name: SQLiteColumn };

/**
 * Throws 409 `name_in_use` when another row of `table` in company `companyId` (other than
 * `exceptId`, and within `scope` when given, e.g. the same parent folder) has `name`, ignoring case.
 */
export async function assertNameFree(db: Db, table: NamedTable, companyId: string, name: string, options: { exceptId?: string; scope?: SQL } = {}): Promise<void> {
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        sql`${table.companyId} = ${companyId}`,
        sql`lower(${table.name}) = lower(${name})`,
        options.exceptId ? sql`${table.id} <> ${options.exceptId}` : undefined,
        options.scope,
      ),
    )
    .limit(1);
  if (rows.length > 0) throw nameInUse();
}

/** Runs a write; a unique-index violation (a concurrent clash) becomes 409 `name_in_use`. */
export async function withNameIndex<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameInUse();
    throw error;
  }
}
