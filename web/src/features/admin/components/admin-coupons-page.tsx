/**
 * /admin/coupons (issue 13; spec §5 "discountCoupon must be valid and not expired"): the discount
 * coupons, for platform administrators only (the API answers 403 to anyone else). Each with its
 * code, a percentage or fixed discount, the day it is valid until (the app's calendar, react-day-
 * picker in the user's language), the maximum uses and the plans it applies to (none chosen: every
 * plan); create and edit in a slide-over, delete after confirmation.
 */
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import { useLingui } from "@lingui/react/macro";
import { CalendarDays, Plus, TicketPercent, X } from "lucide-react";
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
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { calendarLocale } from "@/lib/calendar";
import { CALENDAR_THEME } from "@/components/ui/date-picker";
import { formatDate } from "@/lib/dates";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError, notifySuccess } from "@/lib/notify";
import { adminBillingKeys, adminCouponsQuery, adminPlansQuery, deleteCoupon, saveCoupon } from "@/features/billing/api/admin-billing-api";
import { couponFormSchema, couponFormValues, couponInputOf, endOfDay, isoDay, type CouponFormValues } from "@/features/billing/lib/admin-forms";
import { COUPON_KIND_LABELS } from "@/features/billing/lib/labels";
import { formatMoney } from "@/features/billing/lib/money";
import { COUPON_KINDS, type CouponAnswer, type PlanAnswer } from "../../../../../schema/validation/billing";
import { AdminListCard, useAdminAccess } from "./admin-page";
import { AdminTabs } from "./admin-tabs";

type Target = { kind: "new" } | { kind: "edit"; coupon: CouponAnswer };



/** A day field: a button showing the day (or "No end date"), opening the calendar; a clear button. */
function DayField({ value, onChange, id }: { value: string; onChange: (day: string) => void; id?: string }) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const end = endOfDay(value);
  const selected = value ? new Date(`${value}T12:00:00`) : undefined;
  return (
    <div className="flex gap-2">
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button id={id} variant="outline" className="flex-1 justify-start font-normal">
            <CalendarDays />
            {end !== null ? formatDate(end, { locale: i18n.locale }) : t`No end date`}
          </Button>
        </PopoverTrigger>
        <PopoverContent align="start" className="w-auto p-2">
          <DayPicker
            mode="single"
            style={CALENDAR_THEME}
            locale={calendarLocale(i18n.locale)}
            selected={selected}
            defaultMonth={selected}
            disabled={{ before: new Date() }}
            onSelect={(day) => {
              if (day) onChange(isoDay(day.getTime()));
              setOpen(false);
            }}
          />
        </PopoverContent>
      </Popover>
      {value ? (
        <Button variant="ghost" size="icon" onClick={() => onChange("")} aria-label={t`Remove the end date`}>
          <X />
        </Button>
      ) : null}
    </div>
  );
}

function CouponForm({ coupon, plans, onDone }: { coupon: CouponAnswer | null; plans: PlanAnswer[]; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const locale = i18n.locale;
  const form = useForm<CouponFormValues>({ resolver: zodResolver(couponFormSchema(locale)), defaultValues: couponFormValues(coupon, locale), mode: "onTouched" });
  const { errors } = form.formState;
  const kind = form.watch("kind");
  const save = useMutation({
    mutationFn: (values: CouponFormValues) => saveCoupon(coupon?.id ?? null, couponInputOf(values, locale)),
    onSuccess: async () => {
      notifySuccess(coupon ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: adminBillingKeys.coupons });
    },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["code", "kind", "value", "validUntil", "maxUses", "planIds"]);
    }
  });
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={coupon ? t`Save changes` : t`Create coupon`}>
      <FormField label={t`Code`} error={errors.code?.message} hint={t`Letters, digits, - and _. Customers type it without regard to case.`}>
        <Input autoFocus autoCapitalize="characters" maxLength={40} {...form.register("code")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label={t`Discount`} error={errors.kind?.message}>
          <NativeSelect {...form.register("kind")}>
            {COUPON_KINDS.map((k) => (
              <option key={k} value={k}>
                {i18n._(COUPON_KIND_LABELS[k])}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label={kind === "percent" ? t`Percentage (%)` : t`Amount (R$)`} error={errors.value?.message}>
          <Input inputMode="decimal" placeholder={kind === "percent" ? "10" : "20,00"} {...form.register("value")} />
        </FormField>
        <Controller
          control={form.control}
          name="validUntil"
          render={({ field }) => (
            <FormField label={t`Valid until`} error={errors.validUntil?.message}>
              <DayField value={field.value} onChange={field.onChange} />
            </FormField>
          )}
        />
        <FormField label={t`Maximum uses`} error={errors.maxUses?.message} hint={t`Blank: unlimited.`}>
          <Input inputMode="numeric" {...form.register("maxUses")} />
        </FormField>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t`Plans`}</legend>
        <p className="text-xs text-muted-foreground">{t`None chosen: the coupon applies to every plan.`}</p>
        <Controller
          control={form.control}
          name="planIds"
          render={({ field }) => (
            <div className="grid gap-2 sm:grid-cols-2">
              {plans.map((plan) => {
                const id = `coupon-plan-${plan.id}`;
                return (
                  <div key={plan.id} className="flex items-center gap-2">
                    <Checkbox
                      id={id}
                      checked={field.value.includes(plan.id)}
                      onCheckedChange={(checked) => field.onChange(checked === true ? [...field.value, plan.id] : field.value.filter((p) => p !== plan.id))}
                    />
                    <Label htmlFor={id} className="font-normal">
                      {plan.name}
                    </Label>
                  </div>
                );
              })}
            </div>
          )}
        />
        {errors.planIds?.message ? <p className="text-xs font-medium text-destructive">{t`Choose valid plans.`}</p> : null}
      </fieldset>
    </FormSheetForm>
  );
}

function CouponRow({ coupon, plans, onEdit, onDelete }: { coupon: CouponAnswer; plans: PlanAnswer[]; onEdit: () => void; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const code = coupon.code;
  const discount = coupon.kind === "percent" ? `${coupon.value}%` : formatMoney(coupon.value, i18n.locale);
  const expired = coupon.validUntil !== null && coupon.validUntil < Date.now();
  const usedUp = coupon.maxUses !== null && coupon.uses >= coupon.maxUses;
  const uses = coupon.uses;
  const maxUses = coupon.maxUses;
  const names = coupon.planIds.map((id) => plans.find((plan) => plan.id === id)?.name ?? id).join(", ");
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="admin-coupon-row" aria-label={code}>
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-mono font-medium">{code}</p>
          <Badge variant="secondary">{t`${discount} off`}</Badge>
          {expired ? <Badge variant="outline">{t`Expired`}</Badge> : usedUp ? <Badge variant="outline">{t`Used up`}</Badge> : <Badge>{t`Valid`}</Badge>}
        </div>
        <p className="text-xs text-muted-foreground">
          {coupon.validUntil !== null ? t`Valid until ${formatDate(coupon.validUntil, { locale: i18n.locale })}` : t`No end date`}
          {" · "}
          {maxUses !== null ? t`Used ${uses} of ${maxUses}` : t`Used ${uses} times`}
          {" · "}
          {names ? t`Plans: ${names}` : t`Every plan`}
        </p>
      </div>
      <RowActions name={code} onEdit={onEdit} onDelete={onDelete} />
    </li>
  );
}

/** The Admin area's coupons screen. */
export function AdminCouponsPage() {
  const { t } = useLingui();
  const { allowed, gate } = useAdminAccess();
  const queryClient = useQueryClient();
  const list = useQuery({ ...adminCouponsQuery(), enabled: allowed });
  const plans = useQuery({ ...adminPlansQuery(), enabled: allowed });
  const [target, setTarget] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<CouponAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteCoupon(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: adminBillingKeys.coupons });
    },
    onError: (error) => notifyError(error),
  });

  if (gate) return gate;
  const planList = plans.data ?? [];
  const editing = target?.kind === "edit" ? target.coupon : null;
  const deletingCode = deleting?.code ?? "";
  return (
    <div className="grid gap-4">
      <AdminTabs />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-muted-foreground">{t`Admin`}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{t`Coupons`}</h1>
          <p className="text-sm text-muted-foreground">{t`Discounts companies apply when they choose a plan.`}</p>
        </div>
        <Button onClick={() => setTarget({ kind: "new" })} data-testid="new-coupon">
          <Plus />
          {t`New coupon`}
        </Button>
      </div>
      <AdminListCard
        list={list}
        label={t`Coupons`}
        icon={<TicketPercent />}
        emptyTitle={t`No coupons yet`}
        emptyDescription={t`Create a coupon to offer a discount on a plan.`}
        newLabel={t`New coupon`}
        onNew={() => setTarget({ kind: "new" })}
        renderItem={(coupon) => <CouponRow key={coupon.id} coupon={coupon} plans={planList} onEdit={() => setTarget({ kind: "edit", coupon })} onDelete={() => setDeleting(coupon)} />}
      />
      <FormSheet open={target !== null} onClose={() => setTarget(null)} title={editing ? t`Edit coupon` : t`New coupon`} description={t`A coupon is checked when a company pays: expired, used up or for another plan, it is refused.`}>
        {target ? <CouponForm key={editing?.id ?? "new"} coupon={editing} plans={planList} onDone={() => setTarget(null)} /> : null}
      </FormSheet>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete coupon?`}
        description={t`"${deletingCode}" can no longer be used.`}
        confirmLabel={t`Delete`}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        pending={remove.isPending}
        destructive
      />
    </div>
  );
}
