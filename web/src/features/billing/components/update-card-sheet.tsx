/**
 * Updating the card on file (issue 13 `PUT /api/companies/subscription/card`; Asaas
 * `PUT /subscriptions/{id}/creditCard`): a new card and its holder, checked live; the server's
 * field errors show under their fields. Only the brand and last 4 digits are ever shown back.
 */
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { applyServerErrors } from "@/lib/form-errors";
import { notifySuccess } from "@/lib/notify";
import { billingKeys, updateCard } from "../api/billing-api";
import { PAYMENT_FIELD_PATHS, cardInput, emptyPaymentForm, holderInput, paymentFormSchema, type HolderValues, type PaymentFormValues } from "../lib/payment-form";
import { CardFields, HolderFields } from "./payment-fields";

const schema = paymentFormSchema({ needsHolder: () => true });

function UpdateCardForm({ prefill, onDone }: { prefill: Partial<HolderValues>; onDone: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<PaymentFormValues>({ resolver: zodResolver(schema), defaultValues: emptyPaymentForm(prefill, "CREDIT_CARD"), mode: "onTouched" });
  const save = useMutation({
    mutationFn: (values: PaymentFormValues) => updateCard({ creditCard: cardInput(values.creditCard), holder: holderInput(values.holder) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      notifySuccess("edited");
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, PAYMENT_FIELD_PATHS);
    }
  });
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={form.formState.errors.root?.server?.message} pending={save.isPending} submitLabel={t`Save card`}>
      <CardFields form={form} />
      <HolderFields form={form} />
    </FormSheetForm>
  );
}

/** The update-card sheet. */
export function UpdateCardSheet({ open, prefill, onClose }: { open: boolean; prefill: Partial<HolderValues>; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <FormSheet open={open} onClose={onClose} title={t`Update card`} description={t`The next charges use this card.`}>
      {open ? <UpdateCardForm prefill={prefill} onDone={onClose} /> : null}
    </FormSheet>
  );
}
