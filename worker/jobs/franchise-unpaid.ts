/**
 * The franchises' unpaid-company e-mail (issue 14 "The daily scheduled job e-mails unpaid companies
 * of franchises with sendEmailToUnpaidCompany on"; spec §3 Franchise admin settings `notPaid`,
 * `sendEmailToUnpaidCompany`, §4 "Franchise companies are told to contact the administrator").
 *
 * Run by the hourly cron (worker/scheduled.ts). For each company of a franchise whose
 * `send_email_to_unpaid_company` is on and that is unpaid or overdue — payment status `unpaid`,
 * past its due date (a paid lifetime plan never is), or its subscription `overdue`/`suspended`
 * (worker/billing/state.ts) — the owner gets the franchise's `notPaid` text (a default sentence when
 * the franchise left it blank) once per LOCAL day of the company (`companies.unpaid_mail_day`,
 * claimed before sending, so overlapping runs send once). The mail carries the franchise's name and
 * logo and leaves through the franchise's own SMTP when it set one (worker/lib/mail.ts with
 * `companyId`). Nothing runs while FRANCHISE_MODE is off (spec §5).
 */
import { and, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { billingSubscriptions, companies, franchises, users } from "../../schema";
import { localDay } from "../billing/daily";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { franchiseModeOn } from "../lib/franchise-host";
import { sendMail } from "../lib/mail";

/** How many companies one run looks at (the cron runs hourly; the rest waits an hour). */
const BATCH = 500;

/** The subject and the fallback text, by company language. */
const TEXTS: Record<string, { subject: (franchise: string) => string; fallback: string }> = {
  "pt-BR": { subject: (f) => `${f}: pagamento pendente`, fallback: "Não identificamos o pagamento da sua assinatura. Entre em contato com o administrador." },
  "pt-PT": { subject: (f) => `${f}: pagamento pendente`, fallback: "Não identificámos o pagamento da sua assinatura. Contacte o administrador." },
  "en-US": { subject: (f) => `${f}: payment pending`, fallback: "We have not received your subscription's payment. Please contact your administrator." },
  "es-ES": { subject: (f) => `${f}: pago pendiente`, fallback: "No identificamos el pago de su suscripción. Póngase en contacto con el administrador." },
};

/**
 * Sends the day's unpaid e-mails at `at` (ms UTC; the cron's scheduled time). Answers how many were
 * sent. A company's failure is logged and does not stop the others.
 */
export async function franchiseUnpaidMail(env: AppEnv, at: number): Promise<number> {
  if (!franchiseModeOn(env)) return 0;
  const db = getDb(env.DB);
  const rows = await db
    .select({
      id: companies.id,
      name: companies.name,
      timezone: companies.timezone,
      language: companies.language,
      lastDay: companies.unpaidMailDay,
      ownerEmail: users.email,
      franchiseName: franchises.name,
      notPaid: franchises.notPaid,
    })
    .from(companies)
    .innerJoin(franchises, eq(franchises.id, companies.franchiseId))
    .innerJoin(users, eq(users.id, companies.ownerId))
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.companyId, companies.id))
    .where(
      and(
        eq(franchises.sendEmailToUnpaidCompany, true),
        or(
          eq(companies.paymentStatus, "unpaid"),
          and(lte(companies.dueDate, at), sql`NOT (${companies.plan} = 'lifetime' AND ${companies.paymentStatus} = 'paid')`),
          inArray(billingSubscriptions.status, ["overdue", "suspended"]),
        ),
      ),
    )
    // Least recently mailed first (YYYY-MM-DD sorts by date), so a long list never starves its tail.
    .orderBy(sql`${companies.unpaidMailDay} IS NOT NULL`, companies.unpaidMailDay)
    .limit(BATCH);
  let sent = 0;
  for (const row of rows) {
    try {
      const day = localDay(at, row.timezone);
      if (row.lastDay === day) continue;
      const claimed = await db
        .update(companies)
        .set({ unpaidMailDay: day })
        .where(and(eq(companies.id, row.id), or(isNull(companies.unpaidMailDay), ne(companies.unpaidMailDay, day))))
        .returning({ id: companies.id });
      if (!claimed.length) continue;
      const text = TEXTS[row.language] ?? TEXTS["pt-BR"]!;
      await sendMail(env, { to: row.ownerEmail, subject: text.subject(row.franchiseName), text: `${row.name}\n\n${row.notPaid.trim() || text.fallback}\n`, companyId: row.id });
      sent++;
    } catch (error) {
      console.error("[franchise unpaid mail]", row.id, error);
    }
  }
  return sent;
}
