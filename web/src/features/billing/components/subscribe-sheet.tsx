/**
 * Choosing or changing the plan (issue 13 `POST /api/companies/subscription`): the chosen plan and
 * its price, a coupon (the server's `invalid_coupon` shows under it), card or PIX, the card (live
 * checks) and the payer's address. Paying by card closes the sheet once the server accepts; paying
 * by PIX shows the QR code and copy-and-paste code in the sheet, with a link to the invoice's
 * checkout page, which confirms the payment live.
 */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { isApiError } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { notifySuccess } from "@/lib/notify";
import { companyKeys } from "@/features/companies/api/companies-api";
import type { PixAnswer, PlanAnswer, InvoiceAnswer } from "../../../../../schema/validation/billing";
import { billingKeys, subscribe } from "../api/billing-api";
import { CYCLE_SUFFIXES } from "../lib/labels";
import { formatMoney } from "../lib/money";
import { PAYMENT_FIELD_PATHS, cardInput, emptyPaymentForm, holderInput, paymentFormSchema, type HolderValues, type PaymentFormValues } from "../lib/payment-form";
import { CardFields, HolderFields, MethodChoice } from "./payment-fields";
import { PixPayment } from "./pix-payment";

const schema = paymentFormSchema({ needsHolder: () => true });

function SubscribeForm({ plan, prefill, onDone, onPix }: { plan: PlanAnswer; prefill: Partial<HolderValues>; onDone: () => void; onPix: (pix: PixAnswer, invoice: InvoiceAnswer) => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<PaymentFormValues>({ resolver: zodResolver(schema), defaultValues: emptyPaymentForm(prefill), mode: "onTouched" });
  const { errors } = form.formState;
  const billingType = form.watch("billingType");
  const save = useMutation({
    mutationFn: (values: PaymentFormValues) =>
      subscribe({
        planId: plan.id,
        billingType: values.billingType,
        coupon: values.coupon.trim() || undefined,
        creditCard: values.billingType === "CREDIT_CARD" ? cardInput(values.creditCard) : undefined,
        holder: holderInput(values.holder),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: billingKeys.all });
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await save.mutateAsync(values);
      if (answer.pix) onPix(answer.pix, answer.invoice);
      else {
        notifySuccess("edited");
        onDone();
      }
    } catch (error) {
      // The coupon's refusal may come as the error code itself rather than a field.
      if (isApiError(error) && error.code === "invalid_coupon" && !error.fields.coupon) form.setError("coupon", { type: "server", message: "invalid_coupon" });
      else applyServerErrors(form.setError, error, PAYMENT_FIELD_PATHS);
    }
  });
  const price = formatMoney(plan.priceCents, i18n.locale);
  const suffix = i18n._(CYCLE_SUFFIXES[plan.cycle]);
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={billingType === "PIX" ? t`Generate PIX` : t`Pay ${price}`}>
      <div className="rounded-lg border bg-muted/40 p-3">
        <p className="font-medium">{plan.name}</p>
        <p className="text-sm text-muted-foreground">
          {price} {suffix}
        </p>
      </div>
      <FormField label={t`Coupon (optional)`} error={errors.coupon?.message}>
        <Input autoCapitalize="characters" {...form.register("coupon")} data-testid="coupon" />
      </FormField>
      <MethodChoice value={billingType} onChange={(value) => form.setValue("billingType", value, { shouldValidate: form.formState.isSubmitted })} />
      {billingType === "CREDIT_CARD" ? <CardFields form={form} /> : null}
      <HolderFields form={form} />
    </FormSheetForm>
  );
}

/** The plan-choice sheet; `plan` null closes it. */
export function SubscribeSheet({ plan, prefill, onClose }: { plan: PlanAnswer | null; prefill: Partial<HolderValues>; onClose: () => void }) {
  const { t } = useLingui();
  const [pix, setPix] = useState<{ pix: PixAnswer; invoice: InvoiceAnswer } | null>(null);
  const close = () => {
    setPix(null);
    onClose();
  };
  return (
    <FormSheet open={plan !== null} onClose={close} title={pix ? t`Pay with PIX` : t`Subscribe`} description={pix ? t`The plan starts as soon as the payment is confirmed.` : t`Choose how to pay for the plan.`}>
      {pix ? (
        <div className="grid gap-4 overflow-y-auto p-5">
          <PixPayment pix={pix.pix} />
          <Button asChild>
            <Link to={`/checkout/${pix.invoice.publicId}`} data-testid="follow-payment">
              {t`Follow the payment`}
            </Link>
          </Button>
        </div>
      ) : plan ? (
        <SubscribeForm key={plan.id} plan={plan} prefill={prefill} onDone={close} onPix={(answer, invoice) => setPix({ pix: answer, invoice })} />
      ) : null}
    </FormSheet>
  );
}
