/**
 * The franchise role form (issue 14; spec §6 franchise-grantable features): the chosen features
 * kept in catalogue order, and the message of a delete refused while companies hold the role.
 */
import type { I18n } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { isApiError } from "@/lib/api";
import { FRANCHISE_PERMISSIONS, type FranchisePermission } from "../../../../../schema/permissions";

/** `selected` with `permission` switched on or off, in the catalogue's order, without repeats. */
export function toggleFeature(selected: readonly FranchisePermission[], permission: FranchisePermission, on: boolean): FranchisePermission[] {
  const next = new Set(selected);
  if (on) next.add(permission);
  else next.delete(permission);
  return FRANCHISE_PERMISSIONS.filter((item) => next.has(item));
}

/**
 * The message of a refused role deletion: a 409 (companies still hold the role) names how many,
 * from the answer's `fields.companies` (worker/routes/franchise-roles.ts), else the role's
 * `companies` count of the list; null for any other error (the generic toast applies).
 */
export function roleInUseMessage(i18n: I18n, error: unknown, companies: number): string | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const answered = Number(error.fields.companies);
  const count = Math.max(Number.isInteger(answered) && answered > 0 ? answered : companies, 1);
  return i18n._(
    msg`${plural(count, {
      one: "This role is held by # company. Give that company another role first.",
      other: "This role is held by # companies. Give those companies another role first.",
    })}`,
  );
}
