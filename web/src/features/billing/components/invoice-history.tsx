/**
 * The company's transaction history (spec §2 "subscription (transaction history)"; issue 13
 * `GET /api/invoices?cursor=`): value, due date, paid date, method and status of each invoice,
 * newest first, a page at a time, each with a link to its public /invoice/{id} page (and to the
 * checkout while it is unpaid).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { Receipt } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDate } from "@/lib/dates";
import type { InvoiceAnswer } from "../../../../../schema/validation/billing";
import { invoicesQuery } from "../api/billing-api";
import { INVOICE_STATUS_LABELS, METHOD_LABELS, statusTone } from "../lib/labels";
import { formatMoney } from "../lib/money";

/** Whether an invoice can still be paid on the checkout page. */
export function payable(invoice: Pick<InvoiceAnswer, "status">): boolean {
  return invoice.status === "pending" || invoice.status === "overdue";
}

function InvoiceRow({ invoice }: { invoice: InvoiceAnswer }) {
  const { t, i18n } = useLingui();
  const date = (ms: number) => formatDate(ms, { locale: i18n.locale, style: "medium" });
  return (
    <tr className="border-b last:border-0" data-testid="invoice-row">
      <td className="py-2 pr-3 font-medium tabular-nums">{formatMoney(invoice.valueCents, i18n.locale)}</td>
      <td className="py-2 pr-3">{date(invoice.dueDate)}</td>
      <td className="py-2 pr-3">{invoice.paidAt !== null ? date(invoice.paidAt) : "—"}</td>
      <td className="py-2 pr-3">{invoice.method ? i18n._(METHOD_LABELS[invoice.method]) : "—"}</td>
      <td className="py-2 pr-3">
        <Badge variant={statusTone(invoice.status)}>{i18n._(INVOICE_STATUS_LABELS[invoice.status])}</Badge>
      </td>
      <td className="py-2 text-right whitespace-nowrap">
        {payable(invoice) ? (
          <Button asChild size="sm" className="mr-1">
            <Link to={`/checkout/${invoice.publicId}`}>{t`Pay`}</Link>
          </Button>
        ) : null}
        <Button asChild size="sm" variant="ghost">
          <Link to={`/invoice/${invoice.publicId}`}>{t`View invoice`}</Link>
        </Button>
      </td>
    </tr>
  );
}

/** The history table with "Load more". */
export function InvoiceHistory() {
  const { t } = useLingui();
  const pages = useInfiniteQuery(invoicesQuery());
  if (pages.isPending) {
    return (
      <div className="grid gap-2">
        <Skeleton className="h-8" />
        <Skeleton className="h-8" />
      </div>
    );
  }
  if (pages.isError) return <ErrorState onRetry={() => void pages.refetch()} />;
  const invoices = pages.data.pages.flatMap((page) => page.results);
  if (invoices.length === 0) return <EmptyState icon={<Receipt />} title={t`No transactions yet`} description={t`Invoices appear here once a plan is chosen.`} />;
  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">{t`Transaction history`}</caption>
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th scope="col" className="py-2 pr-3 font-medium">{t`Value`}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t`Due date`}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t`Paid on`}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t`Method`}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t`Status`}</th>
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">{t`Actions`}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((invoice) => (
              <InvoiceRow key={invoice.publicId} invoice={invoice} />
            ))}
          </tbody>
        </table>
      </div>
      {pages.hasNextPage ? (
        <Button variant="outline" className="justify-self-center" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {t`Load more`}
        </Button>
      ) : null}
    </div>
  );
}
