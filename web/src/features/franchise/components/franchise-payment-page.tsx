/**
 * /franchise/payment (spec §2 franchise tab "payment": "invoices and next payment invoice by
 * company"; issue 14): each company's next invoice, then its companies' invoices (newest first,
 * paged) with their state. An open invoice can be charged by PIX through the franchise's own Asaas
 * account (the QR code and copy-and-paste code are shown), opened on its public invoice page
 * (where the client pays by PIX or card), or cancelled after confirmation.
 */
import { useState } from "react";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Ban, ExternalLink, QrCode, Receipt } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";
import { formatDate } from "@/lib/dates";
import { notifyError, notifySuccess } from "@/lib/notify";
import { formatMoney } from "@/features/billing/lib/money";
import { PixPayment } from "@/features/billing/components/pix-payment";
import type { PixAnswer } from "../../../../../schema/validation/billing";
import type { FranchiseInvoiceAnswer } from "../../../../../schema/validation/franchise";
import { cancelFranchiseInvoice, franchiseInvoicesQuery, franchiseKeys, payFranchiseInvoice } from "../api/franchise-api";
import { labelOf, PLAN_LABELS, STATUS_LABELS } from "../lib/labels";
import { FranchiseQueryState } from "./franchise-query-state";
import { ListFooter } from "./paged-list";

/** Whether an invoice may still be charged or cancelled. */
const isOpen = (invoice: FranchiseInvoiceAnswer) => invoice.status === "pending" || invoice.status === "overdue";

function InvoiceRow({ invoice, onPix, onCancel, charging }: { invoice: FranchiseInvoiceAnswer; onPix: () => void; onCancel: () => void; charging: boolean }) {
  const { t, i18n } = useLingui();
  const companyName = invoice.companyName;
  const due = formatDate(invoice.dueDate, { locale: i18n.locale, style: "medium" });
  const paidOn = invoice.paidAt !== null ? formatDate(invoice.paidAt, { locale: i18n.locale, style: "medium" }) : null;
  return (
    <li className="flex flex-col gap-3 p-4 md:flex-row md:items-center" data-testid="franchise-invoice-row" aria-label={t`${companyName}, due ${due}`}>
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate text-sm font-medium">{companyName}</p>
          <Badge variant={invoice.status === "paid" ? "default" : invoice.status === "overdue" ? "destructive" : "secondary"}>{labelOf(i18n, STATUS_LABELS, invoice.status)}</Badge>
        </div>
        <p className="text-xs text-muted-foreground">
          {formatMoney(invoice.value, i18n.locale)} · {t`Due ${due}`}
          {paidOn ? ` · ${t`Paid on ${paidOn}`}` : null}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" asChild>
          <a href={`/invoice/${encodeURIComponent(invoice.publicId)}`} target="_blank" rel="noreferrer noopener">
            <ExternalLink />
            {t`Invoice page`}
          </a>
        </Button>
        {isOpen(invoice) ? (
          <>
            <Button size="sm" onClick={onPix} disabled={charging}>
              {charging ? <Spinner /> : <QrCode />}
              {t`Charge by PIX`}
            </Button>
            <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onCancel}>
              <Ban />
              {t`Cancel invoice`}
            </Button>
          </>
        ) : null}
      </div>
    </li>
  );
}

/** The franchise payment tab. */
export function FranchisePaymentPage() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const invoices = useInfiniteQuery(franchiseInvoicesQuery());
  const [cancelling, setCancelling] = useState<FranchiseInvoiceAnswer | null>(null);
  const [pix, setPix] = useState<{ invoice: FranchiseInvoiceAnswer; pix: PixAnswer } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: franchiseKeys.invoices() });
  const charge = useMutation({
    mutationFn: (id: string) => payFranchiseInvoice(id, { billingType: "PIX" }),
    onSuccess: async (answer) => {
      if (answer.pix) setPix({ invoice: answer.invoice, pix: answer.pix });
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => cancelFranchiseInvoice(id),
    onSuccess: async () => {
      notifySuccess("edited");
      setCancelling(null);
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
  const results = invoices.data?.pages.flatMap((answer) => answer.results) ?? [];
  const next = invoices.data?.pages[0]?.next ?? [];
  const cancellingName = cancelling?.companyName ?? "";
  const pixCompany = pix?.invoice.companyName ?? "";

  return (
    <section aria-label={t`Payment`} className="grid max-w-5xl gap-4">
      <FranchiseQueryState pending={invoices.isPending} error={invoices.error} onRetry={() => void invoices.refetch()}>
        {() => (
          <>
            <Card>
              <CardHeader>
                <CardTitle as="h2">{t`Next invoices`}</CardTitle>
                <CardDescription>{t`What each of your companies will be charged next.`}</CardDescription>
              </CardHeader>
              {next.length === 0 ? (
                <p className="border-t px-6 py-4 text-sm text-muted-foreground">{t`No invoice is due next.`}</p>
              ) : (
                <ul className="divide-y border-t" aria-label={t`Next invoices`}>
                  {next.map((item) => (
                    <li key={item.companyId} className="flex flex-wrap items-center justify-between gap-2 px-6 py-3 text-sm">
                      <span className="font-medium">{item.companyName}</span>
                      <span className="text-muted-foreground">
                        {labelOf(i18n, PLAN_LABELS, item.plan)} · {formatMoney(item.value, i18n.locale)} · {formatDate(item.dueDate, { locale: i18n.locale, style: "medium" })}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            <Card>
              <CardHeader>
                <CardTitle as="h2">{t`Invoices`}</CardTitle>
                <CardDescription>{t`Your companies' invoices, charged through your Asaas account (Integrations tab).`}</CardDescription>
              </CardHeader>
              {results.length === 0 ? (
                <EmptyState className="border-t" icon={<Receipt />} title={t`No invoices yet`} description={t`Invoices appear here when your companies' plans are billed.`} />
              ) : (
                <>
                  <ul className="divide-y border-t" aria-label={t`Invoices`}>
                    {results.map((invoice) => (
                      <InvoiceRow
                        key={invoice.id}
                        invoice={invoice}
                        charging={charge.isPending && charge.variables === invoice.id}
                        onPix={() => charge.mutate(invoice.id)}
                        onCancel={() => setCancelling(invoice)}
                      />
                    ))}
                  </ul>
                  {invoices.hasNextPage ? (
                    <ListFooter shown={results.length} total={null} hasMore loading={invoices.isFetchingNextPage} onMore={() => void invoices.fetchNextPage()} />
                  ) : null}
                </>
              )}
            </Card>
          </>
        )}
      </FranchiseQueryState>
      <Dialog open={pix !== null} onOpenChange={(open) => (open ? undefined : setPix(null))}>
        <DialogContent>
          <DialogTitle>{t`PIX charge of ${pixCompany}`}</DialogTitle>
          <DialogDescription>{t`Send this code to the client, or pay it yourself: the invoice is marked paid when the payment arrives.`}</DialogDescription>
          {pix ? <PixPayment pix={pix.pix} /> : null}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => (open ? undefined : setCancelling(null))}
        title={t`Cancel the invoice of ${cancellingName}?`}
        description={t`Its open charge is cancelled at Asaas and the invoice can no longer be paid.`}
        confirmLabel={t`Cancel invoice`}
        pending={cancel.isPending}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id)}
      />
    </section>
  );
}
