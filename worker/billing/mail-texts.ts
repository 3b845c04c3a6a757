/**
 * The billing reminder mail (issue 13 "e-mails reminders before the due date"), one text per
 * product locale, in the company's language (like worker/lib/mail-texts.ts, which holds the
 * account mails). `date` is already formatted for the locale and the company's time zone.
 */
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../schema/validation/common";
import type { MailText } from "../lib/mail-texts";

/** What the reminder needs: the app and company names, the due date as text, the amount as text and the link to pay. */
export type ReminderArgs = { app: string; companyName: string; date: string; amount: string; link: string };

const TEXTS: Record<Locale, (a: ReminderArgs) => MailText> = {
  "pt-BR": (a) => ({
    subject: `${a.app}: a assinatura de ${a.companyName} vence em ${a.date}`,
    text: `Olá,\n\nA assinatura de ${a.companyName} no ${a.app} vence em ${a.date} (${a.amount}).\nPara continuar usando sem interrupção, confira a forma de pagamento ou pague aqui:\n${a.link}\n\nSe você já pagou, ignore esta mensagem.\n`,
  }),
  "pt-PT": (a) => ({
    subject: `${a.app}: a subscrição de ${a.companyName} vence a ${a.date}`,
    text: `Olá,\n\nA subscrição de ${a.companyName} no ${a.app} vence a ${a.date} (${a.amount}).\nPara continuar a utilizar sem interrupções, verifique o método de pagamento ou pague aqui:\n${a.link}\n\nSe já pagou, ignore esta mensagem.\n`,
  }),
  "en-US": (a) => ({
    subject: `${a.app}: the ${a.companyName} subscription is due on ${a.date}`,
    text: `Hello,\n\nThe ${a.companyName} subscription to ${a.app} is due on ${a.date} (${a.amount}).\nTo keep using it without interruption, check your payment method or pay here:\n${a.link}\n\nIf you have already paid, ignore this message.\n`,
  }),
  "es-ES": (a) => ({
    subject: `${a.app}: la suscripción de ${a.companyName} vence el ${a.date}`,
    text: `Hola:\n\nLa suscripción de ${a.companyName} a ${a.app} vence el ${a.date} (${a.amount}).\nPara seguir usándolo sin interrupciones, revisa el método de pago o paga aquí:\n${a.link}\n\nSi ya has pagado, ignora este mensaje.\n`,
  }),
};

/** The reminder in `locale` (the default locale when it is not a product locale). */
export function reminderMail(locale: string | null | undefined, args: ReminderArgs): MailText {
  const l = (LOCALES as readonly string[]).includes(locale ?? "") ? (locale as Locale) : DEFAULT_LOCALE;
  return TEXTS[l](args);
}

/** The due date and amount formatted for `locale` in `timeZone`. */
export function formatDue(locale: string, timeZone: string, dueDate: number, cents: number): { date: string; amount: string } {
  const l = (LOCALES as readonly string[]).includes(locale) ? locale : DEFAULT_LOCALE;
  return {
    date: new Intl.DateTimeFormat(l, { timeZone, day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date(dueDate)),
    amount: new Intl.NumberFormat(l, { style: "currency", currency: "BRL" }).format(cents / 100),
  };
}
