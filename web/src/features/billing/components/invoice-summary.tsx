/**
 * The head of a public invoice (checkout and invoice pages): who it is from and for, the value,
 * the status and the dates. Also the states both pages share (loading, not found, failed).
 */
import { useLingui } from "@lingui/react/macro";
import { FileQuestion } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDate } from "@/lib/dates";
import { isNotFound } from "@/lib/error-messages";
import type { PublicInvoiceAnswer } from "../../../../../schema/validation/billing";
import { INVOICE_STATUS_LABELS, statusTone } from "../lib/labels";
import { formatMoney } from "../lib/money";

/** Company, plan, value, status and due date. */
export function InvoiceHeading({ invoice }: { invoice: PublicInvoiceAnswer }) {
  const { t, i18n } = useLingui();
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="grid gap-1">
        <p className="text-sm text-muted-foreground">{invoice.companyName}</p>
        <h1 className="text-2xl font-semibold tabular-nums" data-testid="invoice-value">
          {formatMoney(invoice.valueCents, i18n.locale)}
        </h1>
        <p className="text-sm text-muted-foreground">
          {invoice.planName ? `${invoice.planName} · ` : ""}
          {t`Due ${formatDate(invoice.dueDate, { locale: i18n.locale })}`}
        </p>
      </div>
      <Badge variant={statusTone(invoice.status)} data-testid="invoice-status">
        {i18n._(INVOICE_STATUS_LABELS[invoice.status])}
      </Badge>
    </div>
  );
}

/** Loading, not-found and failure states of a public invoice page; null when the invoice is there. */
export function InvoiceStates({ query }: { query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown } }) {
  const { t } = useLingui();
  if (query.isPending) {
    return (
      <Card className="grid gap-4 p-6">
        <Skeleton className="h-10 w-40" />
        <Skeleton className="h-40" />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card>
        {isNotFound(query.error) ? (
          <EmptyState icon={<FileQuestion />} title={t`Invoice not found`} description={t`Check the link you received. Invoice links are long and must be copied whole.`} />
        ) : (
          <ErrorState onRetry={() => void query.refetch()} />
        )}
      </Card>
    );
  }
  return null;
}
