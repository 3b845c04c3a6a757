import { useId } from "react";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { Checkbox } from "@/components/ui/checkbox";
import { COMPANY_PERMISSIONS, type CompanyPermission } from "../../../../../schema/permissions";
import { markAllState, PERMISSION_GROUPS, PERMISSION_LABELS, toggleMarkAll, togglePermission } from "../lib/permission-catalog";

/**
 * The role's permission checklist (spec §6 "a permission checklist and a mark-all option"): a
 * "mark all" box over everything, then each group with its own box and its permissions.
 * Indeterminate boxes show a partial choice. `available` (default: every permission) leaves out
 * what the company's roles may not hold (features outside its franchise role; issue 14).
 */
export function PermissionChecklist({
  value,
  onChange,
  disabled = false,
  error,
  available = COMPANY_PERMISSIONS,
}: {
  value: readonly CompanyPermission[];
  onChange: (permissions: CompanyPermission[]) => void;
  disabled?: boolean;
  error?: string;
  available?: readonly CompanyPermission[];
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const count = value.length;
  const groups = PERMISSION_GROUPS.map((group) => ({ ...group, permissions: group.permissions.filter((permission) => available.includes(permission)) })).filter(
    (group) => group.permissions.length > 0,
  );
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm leading-none font-medium">{t`Permissions`}</legend>
      <div className="flex items-center justify-between gap-3 rounded-md border bg-muted/40 px-3 py-2">
        <div className="flex items-center gap-3">
          <Checkbox id={`${id}-all`} checked={markAllState(value, available)} disabled={disabled} onCheckedChange={() => onChange(toggleMarkAll(value, available))} />
          <label htmlFor={`${id}-all`} className="text-sm font-medium">
            {t`Mark all`}
          </label>
        </div>
        <span className="text-xs text-muted-foreground" aria-live="polite">
          {countText(i18n, "permissionsSelected", count)}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {groups.map((group) => {
        const groupId = `${id}-${group.id}`;
        const groupLabel = i18n._(group.label);
        return (
          <fieldset key={group.id} className="grid gap-1 rounded-md border p-3">
            <legend className="sr-only">{groupLabel}</legend>
            <div className="flex items-center gap-3 pb-1">
              <Checkbox
                id={groupId}
                checked={markAllState(value, group.permissions)}
                disabled={disabled}
                onCheckedChange={() => onChange(toggleMarkAll(value, group.permissions))}
                aria-label={t`Mark all in ${groupLabel}`}
              />
              <label htmlFor={groupId} className="text-sm font-semibold" aria-hidden>
                {groupLabel}
              </label>
            </div>
            <ul className="grid gap-1 pl-7 sm:grid-cols-2">
              {group.permissions.map((permission) => {
                const itemId = `${id}-${permission}`;
                return (
                  <li key={permission} className="flex items-start gap-2 py-1">
                    <Checkbox
                      id={itemId}
                      className="mt-0.5"
                      checked={value.includes(permission)}
                      disabled={disabled}
                      onCheckedChange={(checked) => onChange(togglePermission(value, permission, checked === true))}
                    />
                    <label htmlFor={itemId} className="text-sm">
                      {i18n._(PERMISSION_LABELS[permission])}
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        );
      })}
    </fieldset>
  );
}
