/**
 * /registers (spec §2 Registers tab "custom fields"; permission `custom_fields`): the built-in
 * fields (read-only, explained) and the company's fields with type, kind, variable key, formula or
 * company-wide value; create and edit in a slide-over, delete after confirmation.
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Eye, Lock, Pencil, Plus, SquareFunction, TextCursorInput, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "sonner";
import { isApiError } from "@/lib/api";
import { fieldErrorMessage } from "@/lib/error-messages";
import { notifyError, TOAST_DURATION_MS } from "@/lib/notify";
import { formatFieldValue } from "@/lib/field-values";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { useCustomFields, useDeleteCustomField } from "../hooks/use-registers";
import { FIELD_KIND_LABELS, FIELD_TYPE_LABELS, fieldDisplayName } from "../lib/labels";
import { CustomFieldSheet, type CustomFieldSheetTarget } from "./custom-field-sheet";

function FieldRow({ field, onOpen, onDelete }: { field: CustomFieldAnswer; onOpen: () => void; onDelete?: () => void }) {
  const { t, i18n } = useLingui();
  const company = useActiveCompany();
  const name = fieldDisplayName(field, i18n);
  const botValue = field.kind === "bot" && !field.formula ? formatFieldValue(field.type, field.value, { locale: i18n.locale, timeZone: company.data?.timezone ?? "UTC" }) : "";
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span className="truncate">{name}</span>
          <Badge variant="secondary">{i18n._(FIELD_TYPE_LABELS[field.type])}</Badge>
          <Badge variant="outline">
            {field.readOnly ? <Lock className="size-3" aria-hidden /> : null}
            {i18n._(FIELD_KIND_LABELS[field.kind])}
          </Badge>
          {field.formula ? (
            <Badge variant="outline">
              <SquareFunction className="size-3" aria-hidden />
              {t`Formula`}
            </Badge>
          ) : null}
        </p>
        <p className="truncate font-mono text-xs text-muted-foreground">{`{{${field.key}}}`}{field.formula ? ` = ${field.formula}` : ""}</p>
        {field.kind === "bot" && !field.formula ? (
          <p className="text-xs text-muted-foreground">
            {t`Value:`} <span className="text-foreground">{botValue || t`(empty)`}</span>
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={onOpen} aria-label={field.readOnly ? t`View ${name}` : t`Edit ${name}`}>
          {field.readOnly ? <Eye /> : <Pencil />}
          {field.readOnly ? t`View` : t`Edit`}
        </Button>
        {onDelete ? (
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
            <Trash2 />
            {t`Delete`}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-3 p-4" aria-busy>
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className="flex items-center gap-3">
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-3 w-32" />
          </div>
          <Skeleton className="h-8 w-24" />
        </div>
      ))}
    </div>
  );
}

/** The custom fields tab of /registers. */
export function CustomFieldsPage() {
  const { t, i18n } = useLingui();
  const fields = useCustomFields();
  const remove = useDeleteCustomField();
  const [target, setTarget] = useState<CustomFieldSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<CustomFieldAnswer | null>(null);
  const deletingName = deleting ? fieldDisplayName(deleting, i18n) : "";
  // Literal braces stay out of the translated text (ICU would read them as a placeholder).
  const variableSample = "{{key}}";
  const builtIns = fields.data?.filter((field) => field.kind === "default") ?? [];
  const own = fields.data?.filter((field) => field.kind !== "default") ?? [];

  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1.5">
            <CardTitle as="h2">{t`Custom fields`}</CardTitle>
            <CardDescription>{t`Extra information about contacts, used in messages as ${variableSample}, in filters and in flows.`}</CardDescription>
          </div>
          <Button onClick={() => setTarget({ kind: "new" })} disabled={!fields.data}>
            <Plus />
            {t`New custom field`}
          </Button>
        </CardHeader>
        <CardContent className="p-0 pt-4">
          {fields.isPending ? (
            <ListSkeleton />
          ) : fields.isError ? (
            <ErrorState title={t`Could not load the custom fields.`} onRetry={() => void fields.refetch()} />
          ) : own.length === 0 ? (
            <EmptyState
              className="border-t"
              icon={<TextCursorInput />}
              title={t`No custom fields yet`}
              description={t`Create fields such as "Birthday" or "Plan" to keep what matters about each contact.`}
              action={
                <Button variant="outline" size="sm" onClick={() => setTarget({ kind: "new" })}>
                  <Plus />
                  {t`New custom field`}
                </Button>
              }
            />
          ) : (
            <ul className="divide-y border-t" aria-label={t`Your custom fields`}>
              {own.map((field) => (
                <FieldRow key={field.id} field={field} onOpen={() => setTarget({ kind: "edit", field })} onDelete={() => setDeleting(field)} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {builtIns.length ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">{t`Built-in fields`}</CardTitle>
            <CardDescription>{t`Every company has these. They are filled in from the contact and its conversation and cannot be changed.`}</CardDescription>
          </CardHeader>
          <CardContent className="p-0 pt-2">
            <ul className="divide-y border-t" aria-label={t`Built-in fields`}>
              {builtIns.map((field) => (
                <FieldRow key={field.id} field={field} onOpen={() => setTarget({ kind: "edit", field })} />
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <CustomFieldSheet target={target} fields={fields.data ?? []} onClose={() => setTarget(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the field ${deletingName}?`}
        description={t`Every contact's value of this field is deleted too. This cannot be undone.`}
        confirmLabel={t`Delete field`}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => setDeleting(null),
            onError: (error) => {
              // 409 while a formula uses the field: say so rather than the generic message.
              if (isApiError(error) && error.fields.id) toast.error(i18n._(fieldErrorMessage(error.fields.id)), { duration: TOAST_DURATION_MS });
              else notifyError(error);
            },
          });
        }}
      />
    </div>
  );
}
