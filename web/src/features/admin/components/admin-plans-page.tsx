/**
 * /admin/plans (issue 13; DESIGN.md "Platform administration"): the plans the platform sells, for
 * platform administrators only (`platformAdmin` of GET /api/me; the API answers 403 to anyone
 * else). Each with its price (BRL, typed as money and stored as cents), cycle (spec §9), member
 * and connection limits, the franchise-grantable features it includes (spec §6) and whether it is
 * on sale; create and edit in a slide-over, delete after confirmation. A price change applies to
 * new subscriptions only (existing subscribers keep their price).
 */
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Package, Plus } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Badge } from "@/components/ui/badge";
import { RowActions } from "@/components/row-actions";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Switch } from "@/components/ui/switch";
import { isApiError } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError, notifySuccess } from "@/lib/notify";
import { adminBillingKeys, adminPlansQuery, deletePlan, savePlan } from "@/features/billing/api/admin-billing-api";
import { billingKeys } from "@/features/billing/api/billing-api";
import { planFormSchema, planFormValues, planInputOf, type PlanFormValues } from "@/features/billing/lib/admin-forms";
import { CYCLE_LABELS, CYCLE_SUFFIXES, FEATURE_LABELS } from "@/features/billing/lib/labels";
import { formatMoney } from "@/features/billing/lib/money";
import { FRANCHISE_PERMISSIONS } from "../../../../../schema/permissions";
import { PLAN_CYCLES, type PlanAnswer } from "../../../../../schema/validation/billing";
import { AdminListCard, useAdminAccess } from "./admin-page";
import { AdminTabs } from "./admin-tabs";

type Target = { kind: "new" } | { kind: "edit"; plan: PlanAnswer };

function PlanForm({ plan, onDone }: { plan: PlanAnswer | null; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const locale = i18n.locale;
  const form = useForm<PlanFormValues>({ resolver: zodResolver(planFormSchema(locale)), defaultValues: planFormValues(plan, locale), mode: "onTouched" });
  const { errors } = form.formState;
  const save = useMutation({
    mutationFn: (values: PlanFormValues) => savePlan(plan?.id ?? null, planInputOf(values, locale)),
    onSuccess: async () => {
      notifySuccess(plan ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: adminBillingKeys.plans });
      await queryClient.invalidateQueries({ queryKey: billingKeys.plans() });
    },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      // The server names the price `priceCents`; it shows under the price field.
      const priceCode = isApiError(error) ? error.fields.priceCents : undefined;
      if (priceCode) form.setError("price", { type: "server", message: priceCode });
      else applyServerErrors(form.setError, error, ["name", "cycle", "maxMembers", "maxConnections", "features", "active"]);
    }
  });
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={plan ? t`Save changes` : t`Create plan`}>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus maxLength={80} {...form.register("name")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label={t`Price (R$)`} error={errors.price?.message} hint={plan ? t`Existing subscribers keep the price they signed up with.` : undefined}>
          <Input inputMode="decimal" placeholder="49,90" {...form.register("price")} />
        </FormField>
        <FormField label={t`Billing cycle`} error={errors.cycle?.message}>
          <NativeSelect {...form.register("cycle")}>
            {PLAN_CYCLES.map((cycle) => (
              <option key={cycle} value={cycle}>
                {i18n._(CYCLE_LABELS[cycle])}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label={t`Members`} error={errors.maxMembers?.message} hint={t`Blank: unlimited.`}>
          <Input inputMode="numeric" {...form.register("maxMembers")} />
        </FormField>
        <FormField label={t`Connections`} error={errors.maxConnections?.message} hint={t`Blank: unlimited.`}>
          <Input inputMode="numeric" {...form.register("maxConnections")} />
        </FormField>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t`Features included`}</legend>
        <Controller
          control={form.control}
          name="features"
          render={({ field }) => (
            <div className="grid gap-2 sm:grid-cols-2">
              {FRANCHISE_PERMISSIONS.map((feature) => {
                const id = `plan-feature-${feature}`;
                return (
                  <div key={feature} className="flex items-center gap-2">
                    <Checkbox
                      id={id}
                      checked={field.value.includes(feature)}
                      onCheckedChange={(checked) => field.onChange(checked === true ? [...field.value, feature] : field.value.filter((f) => f !== feature))}
                    />
                    <Label htmlFor={id} className="font-normal">
                      {i18n._(FEATURE_LABELS[feature])}
                    </Label>
                  </div>
                );
              })}
            </div>
          )}
        />
      </fieldset>
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <div className="flex items-center gap-3">
            <Switch id="plan-active" checked={field.value} onCheckedChange={field.onChange} />
            <Label htmlFor="plan-active">{t`On sale (shown to companies)`}</Label>
          </div>
        )}
      />
    </FormSheetForm>
  );
}

function PlanRow({ plan, onEdit, onDelete }: { plan: PlanAnswer; onEdit: () => void; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const name = plan.name;
  const members = plan.maxMembers;
  const connections = plan.maxConnections;
  const features = plan.features.length;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="admin-plan-row" aria-label={name}>
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-medium">{name}</p>
          {plan.active ? <Badge>{t`On sale`}</Badge> : <Badge variant="outline">{t`Not on sale`}</Badge>}
        </div>
        <p className="text-sm">
          <span className="font-medium tabular-nums">{formatMoney(plan.priceCents, i18n.locale)}</span> {i18n._(CYCLE_SUFFIXES[plan.cycle])}
        </p>
        <p className="text-xs text-muted-foreground">
          {members === null ? t`Unlimited members` : t`Up to ${members} members`}
          {" · "}
          {connections === null ? t`Unlimited connections` : t`Up to ${connections} connections`}
          {" · "}
          {t`${features} features`}
        </p>
      </div>
      <RowActions name={name} onEdit={onEdit} onDelete={onDelete} />
    </li>
  );
}

/** The Admin area's plans screen. */
export function AdminPlansPage() {
  const { t } = useLingui();
  const { allowed, gate } = useAdminAccess();
  const queryClient = useQueryClient();
  const list = useQuery({ ...adminPlansQuery(), enabled: allowed });
  const [target, setTarget] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<PlanAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deletePlan(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: adminBillingKeys.plans });
      await queryClient.invalidateQueries({ queryKey: billingKeys.plans() });
    },
    onError: (error) => notifyError(error),
  });

  if (gate) return gate;
  const editing = target?.kind === "edit" ? target.plan : null;
  const deletingName = deleting?.name ?? "";
  return (
    <div className="grid gap-4">
      <AdminTabs />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-muted-foreground">{t`Admin`}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{t`Plans`}</h1>
          <p className="text-sm text-muted-foreground">{t`What companies can subscribe to: price, cycle, limits and features.`}</p>
        </div>
        <Button onClick={() => setTarget({ kind: "new" })} data-testid="new-plan">
          <Plus />
          {t`New plan`}
        </Button>
      </div>
      <AdminListCard
        list={list}
        label={t`Plans`}
        icon={<Package />}
        emptyTitle={t`No plans yet`}
        emptyDescription={t`Create a plan so companies can subscribe after their trial.`}
        newLabel={t`New plan`}
        onNew={() => setTarget({ kind: "new" })}
        renderItem={(plan) => <PlanRow key={plan.id} plan={plan} onEdit={() => setTarget({ kind: "edit", plan })} onDelete={() => setDeleting(plan)} />}
      />
      <FormSheet open={target !== null} onClose={() => setTarget(null)} title={editing ? t`Edit plan` : t`New plan`} description={t`Prices are in reais (BRL).`}>
        {target ? <PlanForm key={editing?.id ?? "new"} plan={editing} onDone={() => setTarget(null)} /> : null}
      </FormSheet>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete plan?`}
        description={t`"${deletingName}" stops being sold. Companies already on it keep their subscription.`}
        confirmLabel={t`Delete`}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        pending={remove.isPending}
        destructive
      />
    </div>
  );
}
