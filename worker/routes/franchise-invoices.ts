/**
 * The franchise's payment tab (issue 14 "Payment tab"; spec §2 /franchise payment, §7
 * `/franchise/invoices`): its companies' invoices (billing, issue 13: `billing_invoices`) and each
 * company's next invoice; paying or cancelling one goes through billing's provider adapter with the
 * franchise's own Asaas key (worker/billing/provider.ts `providerForCompany` picks it for a franchise
 * company), so the franchise collects from its clients. Mounted inside /api/franchise
 * (worker/routes/franchise.ts): FRANCHISE_MODE off → 404, no session → 401, not a franchise
 * administrator → 403; an invoice of a company outside the franchise answers 404.
 *
 * - GET /api/franchise/invoices?cursor=&limit=&companyId= → FranchiseInvoicesAnswer: newest first
 *   (`cursor` null on the last page; 400 `cursor: invalid_cursor`), and `next`: for each company of
 *   the franchise with a live subscription, its plan, locked price and next due date.
 * - GET /api/franchise/invoices/{id} → FranchiseInvoiceAnswer.
 * - POST /api/franchise/invoices/{id} {billingType, creditCard?, holder?} →
 *   FranchiseInvoicePayAnswer: PIX answers the QR code; a card pays now (refused → 400
 *   `creditCard.number: card_refused`). 409 `conflict` for an invoice that is not open.
 * - DELETE /api/franchise/invoices/{id} → FranchiseInvoiceAnswer with status `cancelled`: the open
 *   charge is cancelled at the provider, then here, and the company's access state recomputed. 409
 *   `conflict` for an invoice that is not open, or when the provider cannot cancel charges.
 */
import { Hono } from "hono";
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { billingInvoices, billingPlans, billingSubscriptions, companies, type BillingInvoiceRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import {
  franchiseInvoicePayInput,
  franchiseInvoicesQuery,
  type FranchiseInvoiceAnswer,
  type FranchiseInvoicePayAnswer,
  type FranchiseInvoicesAnswer,
  type FranchiseNextInvoiceAnswer,
} from "../../schema/validation/franchise";
import type { HonoEnv } from "../middleware/context";
import { providerForCompany } from "../billing/provider";
import { payInvoice, remoteIp } from "../billing/service";
import { reconcile } from "../billing/state";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

function present(row: BillingInvoiceRow, companyName: string): FranchiseInvoiceAnswer {
  return {
    id: row.id,
    publicId: row.publicId,
    companyId: row.companyId,
    companyName,
    value: row.valueCents,
    dueDate: row.dueDate,
    status: row.status,
    paidAt: row.paidAt,
    invoiceUrl: row.invoiceUrl,
    createdAt: row.createdAt,
  };
}

/** The invoice `id` of a company of franchise `franchiseId`, with the company; 404 otherwise. */
async function findInvoice(db: Db, franchiseId: string, id: string) {
  const [row] = await db
    .select({ invoice: billingInvoices, company: companies })
    .from(billingInvoices)
    .innerJoin(companies, eq(companies.id, billingInvoices.companyId))
    .where(and(eq(billingInvoices.id, id), eq(companies.franchiseId, franchiseId)))
    .limit(1);
  if (!row) throw notFound("Invoice");
  return row;
}

const notOpen = () => new AppError("conflict", "This invoice is not open for payment.");

/** /api/franchise/invoices… (mounted inside franchiseRoutes). */
export const franchiseInvoicesRoutes = new Hono<HonoEnv>()
  /** GET /api/franchise/invoices → FranchiseInvoicesAnswer (see the file header). */
  .get("/invoices", zv("query", franchiseInvoicesQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const where = and(eq(companies.franchiseId, franchiseId), q.companyId ? eq(companies.id, q.companyId) : undefined);
    const after = decodeNumberCursor(q.cursor);
    const rows = await db
      .select({ invoice: billingInvoices, companyName: companies.name })
      .from(billingInvoices)
      .innerJoin(companies, eq(companies.id, billingInvoices.companyId))
      .where(after ? and(where, sql`(${billingInvoices.createdAt}, ${billingInvoices.id}) < (${after[0]}, ${after[1]})`) : where)
      .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    const subs = await db
      .select({ companyId: companies.id, companyName: companies.name, plan: billingPlans.name, value: billingSubscriptions.priceCents, dueDate: billingSubscriptions.nextDueDate })
      .from(billingSubscriptions)
      .innerJoin(companies, eq(companies.id, billingSubscriptions.companyId))
      .innerJoin(billingPlans, eq(billingPlans.id, billingSubscriptions.planId))
      .where(and(where, ne(billingSubscriptions.status, "cancelled")))
      .orderBy(billingSubscriptions.nextDueDate);
    const next: FranchiseNextInvoiceAnswer[] = subs;
    const answer: FranchiseInvoicesAnswer = {
      results: page.map((r) => present(r.invoice, r.companyName)),
      cursor: rows.length > q.limit && last ? encodeCursor([last.invoice.createdAt, last.invoice.id]) : null,
      next,
    };
    return c.json(answer);
  })
  /** GET /api/franchise/invoices/{id} → FranchiseInvoiceAnswer; 404 outside the franchise. */
  .get("/invoices/:id", zv("param", idParam), async (c) => {
    const { invoice, company } = await findInvoice(c.var.db, c.var.franchise.id, c.req.valid("param").id);
    return c.json(present(invoice, company.name));
  })
  /** POST /api/franchise/invoices/{id} → FranchiseInvoicePayAnswer (see the file header). */
  .post("/invoices/:id", zv("param", idParam), zv("json", franchiseInvoicePayInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const { invoice, company } = await findInvoice(db, c.var.franchise.id, c.req.valid("param").id);
    if (invoice.status !== "pending" && invoice.status !== "overdue") throw notOpen();
    const provider = await providerForCompany(c.env, company);
    // The charge lives at the provider account that issued it (the key may have changed since).
    if (provider.name !== invoice.provider) throw new AppError("conflict", "This invoice was issued through another payment account.");
    const paid = await payInvoice(c.env, db, provider, invoice, input.billingType, input.creditCard, input.holder, remoteIp(c.req.raw.headers));
    const fresh = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? invoice;
    const answer: FranchiseInvoicePayAnswer = { invoice: present(fresh, company.name), pix: paid.pix };
    return c.json(answer);
  })
  /** DELETE /api/franchise/invoices/{id} → FranchiseInvoiceAnswer, cancelled (see the file header). */
  .delete("/invoices/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const { invoice, company } = await findInvoice(db, c.var.franchise.id, c.req.valid("param").id);
    if (invoice.status !== "pending" && invoice.status !== "overdue") throw notOpen();
    if (invoice.provider !== "sandbox" && invoice.providerPaymentId) {
      const provider = await providerForCompany(c.env, company);
      if (provider.name !== invoice.provider || !provider.cancelPayment) {
        throw new AppError("conflict", "This charge cannot be cancelled from here; cancel it in the payment provider's dashboard.");
      }
      await provider.cancelPayment(invoice.providerPaymentId);
    }
    await db
      .update(billingInvoices)
      .set({ status: "cancelled", updatedAt: Date.now() })
      .where(and(eq(billingInvoices.id, invoice.id), inArray(billingInvoices.status, ["pending", "overdue"])));
    await reconcile(c.env, db, company.id);
    const fresh = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? invoice;
    return c.json(present(fresh, company.name));
  });
