/**
 * The no-escalation rule of issue 8 point 2: a member never grants — by assigning a role, by an
 * invite, or by creating or editing a role — a permission they do not hold themselves. The Owner
 * holds every permission (worker/middleware/auth.ts `loadMembership`), so the Owner may grant all.
 */
import type { CompanyPermission } from "../../schema/permissions";
import { AppError } from "./errors";

/** The permissions among `granted` that `held` lacks (each once, in the order met). */
export function notHeld(held: ReadonlySet<CompanyPermission>, granted: Iterable<CompanyPermission>): CompanyPermission[] {
  return [...new Set([...granted].filter((p) => !held.has(p)))];
}

/**
 * Throws 403 `forbidden` "You cannot grant permissions you do not hold." (with `fields[field]` =
 * `permissions_not_held` and the missing names in the message) when `granted` holds a permission
 * that `held` lacks.
 */
export function assertCanGrant(held: ReadonlySet<CompanyPermission>, granted: Iterable<CompanyPermission>, field: string): void {
  const missing = notHeld(held, granted);
  if (missing.length) {
    throw new AppError("forbidden", `You cannot grant permissions you do not hold: ${missing.join(", ")}.`, { [field]: "permissions_not_held" });
  }
}
