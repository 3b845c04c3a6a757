/**
 * A real SMTP server on loopback for tests (DESIGN.md "Email": tests run a real SMTP server on
 * loopback), built on nodemailer's smtp-server. It accepts any credentials over plain SMTP (no
 * STARTTLS), keeps every message it receives, and lists them at `GET {controlOrigin}/__mails`.
 */
import { createServer, type Server } from "node:http";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; user: string | null; raw: string; at: number };

export type SmtpStandIn = { port: number; controlOrigin: string; mails: ReceivedMail[]; close(): Promise<void> };

/** Starts the SMTP server and its HTTP control endpoint on 127.0.0.1 (free ports). */
export async function startSmtpStandIn(options: { keepAlive?: boolean } = {}): Promise<SmtpStandIn> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "anonymous" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === "string" ? session.user : null,
          raw: Buffer.concat(chunks).toString("utf8"),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const smtpAddress = smtp.server.address();
  const port = typeof smtpAddress === "object" && smtpAddress ? smtpAddress.port : 0;

  const control: Server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(req.url?.startsWith("/__mails") ? mails : []));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", () => resolve()));
  const controlAddress = control.address();
  const controlPort = typeof controlAddress === "object" && controlAddress ? controlAddress.port : 0;
  if (!options.keepAlive) {
    smtp.server.unref();
    control.unref();
  }
  return {
    port,
    controlOrigin: `http://127.0.0.1:${controlPort}`,
    mails,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => control.close(() => resolve()));
    },
  };
}
