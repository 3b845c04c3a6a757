import { useId } from "react";
import { useLingui } from "@lingui/react/macro";
import { Checkbox } from "@/components/ui/checkbox";
import { fieldErrorMessage } from "@/lib/error-messages";
import type { RoleAnswer } from "../../../../../schema/api-types";

/**
 * The roles a member may be given (every role but Owner, which belongs to the company's owner
 * only), as a checkbox group. `error` is a field code (`roles_required`, `invalid_id`,
 * `owner_role`).
 */
export function RoleChecklist({
  roles,
  value,
  onChange,
  error,
  disabled = false,
}: {
  roles: readonly RoleAnswer[];
  value: readonly string[];
  onChange: (roles: string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const assignable = roles.filter((role) => !role.isOwner);
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="mb-1 text-sm leading-none font-medium">{t`Roles`}</legend>
      <ul className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-2">
        {assignable.map((role) => {
          const checkboxId = `${id}-${role.id}`;
          return (
            <li key={role.id} className="flex items-start gap-3 rounded-sm p-2 hover:bg-accent/50">
              <Checkbox
                id={checkboxId}
                className="mt-0.5"
                checked={value.includes(role.id)}
                disabled={disabled}
                aria-invalid={error ? true : undefined}
                onCheckedChange={(checked) =>
                  onChange(checked === true ? [...value, role.id] : value.filter((roleId) => roleId !== role.id))
                }
              />
              <label htmlFor={checkboxId} className="grid min-w-0 gap-0.5 text-sm">
                <span className="font-medium">{role.name}</span>
                {role.description ? <span className="text-xs text-muted-foreground">{role.description}</span> : null}
              </label>
            </li>
          );
        })}
      </ul>
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {i18n._(fieldErrorMessage(error))}
        </p>
      ) : null}
    </fieldset>
  );
}
