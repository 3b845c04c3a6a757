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

export type Mail = { to: string; subject: string; text: string };

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
 */
export async function sendMail(env: AppEnv, mail: Mail): Promise<void> {
  try {
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
          from: parseMailbox(env.SMTP_FROM ?? `${env.APP_NAME} <no-reply@localhost>`),
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        },
      );
      return;
    }
    if (!outboxEnabled(env)) {
      // The body is left out of the log on purpose: it may carry a reset link or a code.
      console.error(`[mail] not sent, no SMTP_HOST and MAIL_OUTBOX is not "on": to=${mail.to} subject=${JSON.stringify(mail.subject)}`);
      return;
    }
    await getDb(env.DB).insert(mailOutbox).values({ id: newId(), ...mail, createdAt: now() });
    console.log(`[mail outbox] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}`);
  } catch (error) {
    console.error("[mail] sending failed", error);
  }
}
