/**
 * The Edit and Delete buttons at the end of a list row (the Admin area's announcements, plans,
 * coupons and franchises): both named after the row (`name`) for screen readers, Delete in the
 * destructive colour with its label visible only on narrow screens.
 */
import { useLingui } from "@lingui/react/macro";
import { Pencil, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";

/** Edit and Delete for the row called `name`. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  return (
    <div className="flex shrink-0 gap-2">
      <Button variant="outline" size="sm" onClick={onEdit} aria-label={t`Edit ${name}`}>
        <Pencil />
        {t`Edit`}
      </Button>
      <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
        <Trash2 />
        <span className="sm:sr-only">{t`Delete`}</span>
      </Button>
    </div>
  );
}
