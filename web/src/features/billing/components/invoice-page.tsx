/**
 * /invoice/{id} (spec §2, checkout layout, no guards; issue 13): one invoice by its unguessable
 * public id, laid out to print (a Print button; the app's header and the buttons are left out of
 * the printout): who issued it and to whom, its line, value, status, dates and payment method,
 * and a Pay link while it is unpaid.
 */
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { Printer } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Separator } from "@/components/ui/separator";
import { formatDate } from "@/lib/dates";
import { publicInvoiceQuery } from "../api/billing-api";
import { METHOD_LABELS } from "../lib/labels";
import { formatMoney } from "../lib/money";
import { payable } from "./invoice-history";
import { InvoiceHeading, InvoiceStates } from "./invoice-summary";

/** The invoice screen. */
export function InvoicePage() {
  const { t, i18n } = useLingui();
  const { id = "" } = useParams();
  const invoice = useQuery(publicInvoiceQuery(id));
  if (!invoice.data) return <InvoiceStates query={invoice} />;
  const current = invoice.data;
  const date = (ms: number | null) => (ms === null ? "—" : formatDate(ms, { locale: i18n.locale }));
  const rows = [
    { term: t`Invoice`, value: current.publicId },
    { term: t`Issued by`, value: current.issuerName },
    { term: t`Billed to`, value: current.companyName },
    { term: t`Issued on`, value: date(current.createdAt) },
    { term: t`Due date`, value: date(current.dueDate) },
    { term: t`Paid on`, value: date(current.paidAt) },
    { term: t`Method`, value: current.method ? i18n._(METHOD_LABELS[current.method]) : "—" },
  ];
  const value = formatMoney(current.valueCents, i18n.locale);
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap justify-end gap-2 print:hidden">
        {payable(current) ? (
          <Button asChild>
            <Link to={`/checkout/${current.publicId}`}>{t`Pay now`}</Link>
          </Button>
        ) : null}
        <Button variant="outline" onClick={() => window.print()}>
          <Printer />
          {t`Print`}
        </Button>
      </div>
      <Card className="print:border-0 print:shadow-none">
        <CardContent className="grid gap-6 p-6">
          <InvoiceHeading invoice={current} />
          <Separator />
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {rows.map((row) => (
              <div key={row.term} className="grid gap-0.5">
                <dt className="text-xs text-muted-foreground">{row.term}</dt>
                <dd className="font-medium break-all">{row.value}</dd>
              </div>
            ))}
          </dl>
          <table className="w-full text-sm">
            <caption className="sr-only">{t`Invoice lines`}</caption>
            <thead>
              <tr className="border-b text-left text-xs text-muted-foreground">
                <th scope="col" className="py-2 font-medium">{t`Description`}</th>
                <th scope="col" className="py-2 text-right font-medium">{t`Amount`}</th>
              </tr>
            </thead>
            <tbody>
              <tr className="border-b">
                <td className="py-2">{current.planName ? t`Subscription: ${current.planName}` : t`Subscription`}</td>
                <td className="py-2 text-right tabular-nums">{value}</td>
              </tr>
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" className="py-2 text-left">{t`Total`}</th>
                <td className="py-2 text-right font-semibold tabular-nums">{value}</td>
              </tr>
            </tfoot>
          </table>
        </CardContent>
      </Card>
    </div>
  );
}
