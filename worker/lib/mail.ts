/**
 * Outgoing e-mail (DESIGN.md "Email"). With SMTP settings the mail goes out over
 * `cloudflare:sockets` through worker-mailer; without them it is kept in the `mail_outbox` table
 * and printed to the console, which is what local development and the tests read.
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

/** Sends one mail; never throws into the caller's request (a failure is logged). */
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
    await getDb(env.DB).insert(mailOutbox).values({ id: newId(), ...mail, createdAt: now() });
    console.log(`[mail outbox] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}`);
  } catch (error) {
    console.error("[mail] sending failed", error);
  }
}
