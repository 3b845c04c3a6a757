/**
 * /checkout/{id} (spec §2, checkout layout, no guards; issue 13): pays one invoice, found by its
 * unguessable public id. Card (live checks, the payer's address) or PIX (QR code and
 * copy-and-paste code). The page re-reads the invoice every 3 s until it is paid (live
 * confirmation), then shows the success state with the way back into the app; the company's
 * cached state is dropped so the app's guards see the payment. With the sandbox provider a PIX
 * charge offers "Simulate payment" (only when the invoice says its provider is the sandbox).
 */
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { CircleCheck, FlaskConical } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Separator } from "@/components/ui/separator";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/session";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError } from "@/lib/notify";
import { formatDateTime } from "@/lib/dates";
import { companyKeys } from "@/features/companies/api/companies-api";
import type { PixAnswer, PublicInvoiceAnswer } from "../../../../../schema/validation/billing";
import { billingKeys, payInvoice, publicInvoiceQuery, simulatePayment } from "../api/billing-api";
import { PAYMENT_FIELD_PATHS, cardInput, emptyPaymentForm, holderInput, paymentFormSchema, type PaymentFormValues } from "../lib/payment-form";
import { payable } from "./invoice-history";
import { InvoiceHeading, InvoiceStates } from "./invoice-summary";
import { CardFields, HolderFields, MethodChoice } from "./payment-fields";
import { PixPayment } from "./pix-payment";

/** How often the page re-reads an unpaid invoice, in ms. */
export const CHECKOUT_POLL_MS = 3000;

const schema = paymentFormSchema({ needsHolder: (values) => values.billingType === "CREDIT_CARD" });

function PayForm({ invoice, onPix }: { invoice: PublicInvoiceAnswer; onPix: (pix: PixAnswer) => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<PaymentFormValues>({ resolver: zodResolver(schema), defaultValues: emptyPaymentForm({}, invoice.method ?? "PIX"), mode: "onTouched" });
  const billingType = form.watch("billingType");
  const pay = useMutation({
    mutationFn: (values: PaymentFormValues) =>
      payInvoice(
        invoice.publicId,
        values.billingType === "PIX"
          ? { billingType: "PIX" }
          : { billingType: "CREDIT_CARD", creditCard: cardInput(values.creditCard), holder: holderInput(values.holder) },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.publicInvoice(invoice.publicId) }),
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await pay.mutateAsync(values);
      if (answer.pix) onPix(answer.pix);
    } catch (error) {
      applyServerErrors(form.setError, error, PAYMENT_FIELD_PATHS);
    }
  });
  const serverError = form.formState.errors.root?.server?.message;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      {serverError ? <Alert variant="destructive">{serverError}</Alert> : null}
      <MethodChoice value={billingType} onChange={(value) => form.setValue("billingType", value)} />
      {billingType === "CREDIT_CARD" ? (
        <>
          <CardFields form={form} />
          <HolderFields form={form} />
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{t`A PIX code is generated for this invoice. Pay it in your bank's app; this page confirms the payment by itself.`}</p>
      )}
      <Button type="submit" disabled={pay.isPending} data-testid="pay-submit">
        {pay.isPending ? <Spinner /> : null}
        {billingType === "PIX" ? t`Generate PIX code` : t`Pay with card`}
      </Button>
    </form>
  );
}

function SimulatePayment({ publicId }: { publicId: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const simulate = useMutation({
    mutationFn: () => simulatePayment(publicId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.publicInvoice(publicId) }),
    onError: (error) => notifyError(error),
  });
  return (
    <Alert className="flex-wrap items-center">
      <FlaskConical />
      <p className="flex-1">{t`Sandbox: no real money moves. Simulate the customer paying this PIX code.`}</p>
      <Button size="sm" variant="outline" onClick={() => simulate.mutate()} disabled={simulate.isPending} data-testid="simulate-payment">
        {simulate.isPending ? <Spinner /> : null}
        {t`Simulate payment`}
      </Button>
    </Alert>
  );
}

function Paid({ invoice }: { invoice: PublicInvoiceAnswer }) {
  const { t, i18n } = useLingui();
  const signedIn = api.tokens.get() !== null;
  return (
    <div className="grid justify-items-center gap-3 py-6 text-center" data-testid="checkout-paid">
      <CircleCheck className="size-12 text-primary" aria-hidden />
      <h2 className="text-xl font-semibold">{t`Payment confirmed`}</h2>
      <p className="text-sm text-muted-foreground">
        {invoice.paidAt !== null ? t`Paid on ${formatDateTime(invoice.paidAt, { locale: i18n.locale })}.` : null} {t`Thank you! The subscription is active.`}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild data-testid="back-to-app">
          <Link to={signedIn ? "/" : "/login"}>{signedIn ? t`Back to the app` : t`Log in`}</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={`/invoice/${invoice.publicId}`}>{t`View invoice`}</Link>
        </Button>
      </div>
    </div>
  );
}

/** The checkout screen. */
export function CheckoutPage() {
  const { t } = useLingui();
  const { id = "" } = useParams();
  const queryClient = useQueryClient();
  const invoice = useQuery(publicInvoiceQuery(id, CHECKOUT_POLL_MS));
  const [pix, setPix] = useState<PixAnswer | null>(null);
  const [otherWay, setOtherWay] = useState(false);
  const paid = invoice.data?.status === "paid";
  useEffect(() => {
    // The guards read the company's subscription from the cache (ensureQueryData keeps what it
    // has): drop it so they read it again after the payment.
    if (!paid) return;
    queryClient.removeQueries({ queryKey: companyKeys.all });
    queryClient.removeQueries({ queryKey: billingKeys.subscription() });
  }, [paid, queryClient]);
  const states = <InvoiceStates query={invoice} />;
  if (!invoice.data) return states;
  const current = invoice.data;
  const shownPix = otherWay ? null : (pix ?? current.pix);
  return (
    <Card>
      <CardContent className="grid gap-5 p-6">
        <InvoiceHeading invoice={current} />
        <Separator />
        {paid ? (
          <Paid invoice={current} />
        ) : !payable(current) ? (
          <p className="text-sm text-muted-foreground">{t`This invoice can no longer be paid.`}</p>
        ) : shownPix ? (
          <div className="grid gap-4">
            <PixPayment pix={shownPix} />
            <p className="flex items-center justify-center gap-2 text-sm text-muted-foreground" role="status">
              <Spinner />
              {t`Waiting for the payment…`}
            </p>
            {current.sandbox ? <SimulatePayment publicId={current.publicId} /> : null}
            <Button variant="link" onClick={() => setOtherWay(true)}>
              {t`Pay another way`}
            </Button>
          </div>
        ) : (
          <PayForm
            invoice={current}
            onPix={(answer) => {
              setPix(answer);
              setOtherWay(false);
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
