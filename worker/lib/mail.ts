/**
 * Outgoing e-mail (DESIGN.md "Email"). With SMTP settings the mail goes out over
 * `cloudflare:sockets` through worker-mailer. Without them it is kept in the `mail_outbox` table
 * and printed to the console only when `MAIL_OUTBOX=on` (local development and tests: npm start,
 * the e2e runner and vitest set it), because the outbox holds reset links and verification codes in
 * plain text (issue 8 point 6). With neither, the mail is dropped and an error is logged.
 */
import type { AppEnv } from "../env";
import { mailOutbox } from "../../schema";
import { getDb, now } from "./db";
import { newId } from "./ids";
import { mailSenderForCompany, type MailSender } from "./branding";

/**
 * One mail. `companyId`: the company it is about; a company of a franchise (issue 14) sends it with
 * the franchise's name and logo, through the franchise's own SMTP when it set one
 * (worker/lib/branding.ts `mailSenderForCompany`).
 */
export type Mail = { to: string; subject: string; text: string; companyId?: string };

/**
 * `Name <address>` or a bare address → worker-mailer's `{ name, email }` (it sends a string as the
 * bare MAIL FROM address, which a display name would make invalid).
 */
export function parseMailbox(value: string): { name: string; email: string } {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (match) return { name: (match[1] ?? "").replace(/^"|"$/g, ""), email: match[2] ?? "" };
  return { name: "", email: value.trim() };
}

/** Whether the dev outbox is switched on (`MAIL_OUTBOX=on`, local development and tests only). */
export function outboxEnabled(env: Pick<AppEnv, "MAIL_OUTBOX">): boolean {
  return env.MAIL_OUTBOX?.trim().toLowerCase() === "on";
}

/**
 * Sends one mail: SMTP when SMTP_HOST is set, else the dev outbox when MAIL_OUTBOX is "on", else
 * nothing (an error is logged). Never throws into the caller's request (a failure is logged).
 * A franchise's mail (`sender`, or the franchise of `mail.companyId` while FRANCHISE_MODE is on):
 * the franchise's name replaces the product's in subject and text and signs it, its logo heads an
 * HTML part, and it goes out through the franchise's own SMTP when set (else as above, From named
 * after the franchise).
 */
export async function sendMail(env: AppEnv, mail: Mail, sender?: MailSender | null): Promise<void> {
  try {
    // A franchise company's mail: the franchise's name and logo, and its own SMTP when set (issue 14).
    const brand = sender !== undefined ? sender : mail.companyId ? await mailSenderForCompany(env, mail.companyId) : null;
    // The product's name in the mail texts (worker/lib/mail-texts.ts: "app") becomes the franchise's.
    if (brand) {
      const rebrand = (value: string) => (env.APP_NAME ? value.split(env.APP_NAME).join(brand.name) : value);
      mail = { ...mail, subject: rebrand(mail.subject), text: `${rebrand(mail.text)}\n\n— ${brand.name}` };
    }
    const html = brand?.logoUrl ? brandedHtml(mail.text, brand) : undefined;
    if (brand?.smtp) {
      await sendThroughSmtp(brand.smtp, { name: brand.name, email: brand.smtp.from }, mail, html);
      return;
    }
    if (env.SMTP_HOST) {
      const { WorkerMailer } = await import("worker-mailer");
      await WorkerMailer.send(
        {
          host: env.SMTP_HOST,
          port: Number(env.SMTP_PORT ?? 587),
          secure: Number(env.SMTP_PORT ?? 587) === 465,
          credentials: env.SMTP_USER ? { username: env.SMTP_USER, password: env.SMTP_PASSWORD ?? "" } : undefined,
          authType: env.SMTP_USER ? "plain" : undefined,
        },
        {
          from: brand
            ? { ...parseMailbox(env.SMTP_FROM ?? `${env.APP_NAME} <no-reply@localhost>`), name: brand.name }
            : parseMailbox(env.SMTP_FROM ?? `${env.APP_NAME} <no-reply@localhost>`),
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(html ? { html } : {}),
        },
      );
      return;
    }
    if (!outboxEnabled(env)) {
      // The body is left out of the log on purpose: it may carry a reset link or a code.
      console.error(`[mail] not sent, no SMTP_HOST and MAIL_OUTBOX is not "on": to=${mail.to} subject=${JSON.stringify(mail.subject)}`);
      return;
    }
    await getDb(env.DB).insert(mailOutbox).values({ id: newId(), to: mail.to, subject: mail.subject, text: mail.text, createdAt: now() });
    console.log(`[mail outbox] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}`);
  } catch (error) {
    console.error("[mail] sending failed", error);
  }
}

/**
 * Sends through a given SMTP server (a franchise's own: issue 14), over `cloudflare:sockets` with
 * worker-mailer; port 465 is implicit TLS. Throws on failure (the caller decides).
 */
export async function sendThroughSmtp(
  smtp: { host: string; port: number; user: string | null; password: string | null },
  from: { name: string; email: string },
  mail: Mail,
  html?: string,
): Promise<void> {
  const { WorkerMailer } = await import("worker-mailer");
  await WorkerMailer.send(
    {
      host: smtp.host,
      port: smtp.port,
      secure: smtp.port === 465,
      credentials: smtp.user ? { username: smtp.user, password: smtp.password ?? "" } : undefined,
      authType: smtp.user ? "plain" : undefined,
    },
    { from, to: mail.to, subject: mail.subject, text: mail.text, ...(html ? { html } : {}) },
  );
}

/** The HTML part of a branded mail: the franchise's logo (absolute URL) above the escaped text. */
function brandedHtml(text: string, brand: MailSender): string {
  const esc = (v: string) => v.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
  const logo = brand.logoUrl ? `<p><img src="${esc(brand.logoUrl)}" alt="${esc(brand.name)}" style="max-height:48px"></p>` : "";
  return `<!doctype html><html><body>${logo}<div style="white-space:pre-wrap">${esc(text)}</div></body></html>`;
}
