import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { countRows } from "../test/helpers";
import { sendMail } from "./mail";

type Received = { from: string; to: string[]; user: string | null; raw: string };

describe("mail adapter (DESIGN.md Email)", () => {
  it("with SMTP settings the mail goes to the SMTP server, authenticated, and not to the outbox", async () => {
    const to = `smtp.${crypto.randomUUID()}@example.com`;
    const subject = `Teste ${crypto.randomUUID()}`;
    await sendMail(
      { ...env, SMTP_HOST: "127.0.0.1", SMTP_PORT: env.SMTP_TEST_PORT, SMTP_USER: "mailer", SMTP_PASSWORD: "secret", SMTP_FROM: "Conversa <no-reply@conversa.test>" },
      { to, subject, text: "Olá, isto é um teste." },
    );
    const mails = (await (await fetch(`${env.SMTP_STANDIN_ORIGIN}/__mails`)).json()) as Received[];
    const mine = mails.find((m) => m.to.includes(to));
    expect(mine, JSON.stringify(mails.map((m) => m.to))).toBeTruthy();
    expect(mine?.from).toBe("no-reply@conversa.test");
    expect(mine?.user).toBe("mailer");
    expect(mine?.raw).toContain(subject);
    expect(await countRows("mail_outbox", "to_address = ?", to)).toBe(0);
  });

  it("without SMTP settings and with MAIL_OUTBOX=on the mail is kept in the dev outbox", async () => {
    const to = `outbox.${crypto.randomUUID()}@example.com`;
    await sendMail({ ...env, SMTP_HOST: undefined, MAIL_OUTBOX: "on" }, { to, subject: "Outbox", text: "kept locally" });
    expect(await countRows("mail_outbox", "to_address = ?", to)).toBe(1);
  });

  it("without SMTP settings and without MAIL_OUTBOX the mail is not stored and an error is logged", async () => {
    const to = `dropped.${crypto.randomUUID()}@example.com`;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (const MAIL_OUTBOX of [undefined, "", "off"]) {
        await sendMail({ ...env, SMTP_HOST: undefined, MAIL_OUTBOX }, { to, subject: "Reset", text: "secret link 123456" });
      }
      expect(await countRows("mail_outbox", "to_address = ?", to)).toBe(0);
      const logged = errors.mock.calls.map((args) => args.join(" ")).filter((line) => line.includes(to));
      expect(logged).toHaveLength(3);
      // The body (a reset link or a code) never reaches the log.
      expect(logged.join("\n")).not.toContain("123456");
    } finally {
      errors.mockRestore();
    }
  });
});
