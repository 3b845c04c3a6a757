/**
 * A stand-in for Asaas's REST API v3 on loopback, for tests and local runs (we cannot reach Asaas
 * here). It speaks the documented contract the adapter uses (shared/reference/wire-formats.md
 * "Asaas"): `access_token` header (401 without or with a wrong key), JSON bodies, errors as
 * `{errors:[{code, description}]}` with HTTP 400, reais amounts and `YYYY-MM-DD` days.
 *
 * API: POST /v3/customers; POST /v3/subscriptions (MONTHLY/SEMIANNUALLY/YEARLY, first charge
 * created at once); GET /v3/subscriptions/{id}/payments; PUT /v3/subscriptions/{id}/creditCard;
 * DELETE /v3/subscriptions/{id}; POST /v3/payments; GET /v3/payments/{id};
 * GET /v3/payments/{id}/pixQrCode; POST /v3/payments/{id}/payWithCreditCard; DELETE /v3/payments/{id}
 * (an open payment only: PAYMENT_DELETED follows).
 * Cards: 4000 0000 0000 0002 and 5105 1051 0510 5100 are refused (`invalid_creditCard`); any other
 * card is approved and its charge CONFIRMED at once. PIX charges stay PENDING until POST /__pay.
 *
 * Webhooks: every payment change queues Asaas's event (`{id, event, dateCreated, payment}`):
 * PAYMENT_CREATED, PAYMENT_CONFIRMED, PAYMENT_RECEIVED, PAYMENT_OVERDUE, PAYMENT_REFUNDED,
 * PAYMENT_DELETED. With `webhookUrl` set they are POSTed there at once with the
 * `asaas-access-token` header; otherwise a test takes them (GET /__webhooks, or `takeWebhooks()`) and
 * delivers them itself (the worker under test has no listening port).
 *
 * Control endpoints (not Asaas's): POST /__pay {paymentId} (PIX received), POST /__overdue
 * {paymentId}, POST /__refund {paymentId}, GET /__webhooks (takes the queued deliveries), POST
 * /__reset.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import QRCode from "qrcode";

/** Card numbers the stand-in refuses, like Asaas's sandbox refusals. */
export const ASAAS_REFUSED_CARDS = ["4000000000000002", "5105105105105100"];

/** One queued webhook delivery. */
export type AsaasWebhook = { headers: Record<string, string>; body: { id: string; event: string; dateCreated: string; payment: Record<string, unknown> } };

export type AsaasStandIn = {
  /** Base URL with /v3 (use as ASAAS_API_URL). */
  apiUrl: string;
  origin: string;
  /** The API key it accepts. */
  apiKey: string;
  /** Takes (and clears) the queued webhook deliveries. */
  takeWebhooks(): AsaasWebhook[];
  close(): Promise<void>;
};

type Payment = Record<string, unknown> & { id: string; status: string; value: number; subscription: string | null; billingType: string; dueDate: string };

const today = () => new Date(Date.now() - 3 * 3600 * 1000).toISOString().slice(0, 10);
const addMonths = (day: string, months: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/**
 * Starts the stand-in on 127.0.0.1 (`port` 0: any free port). `keepAlive`: keep the process alive
 * for it (a long-running `npm start`); by default the server does not hold the process open (tests).
 */
export async function startAsaasStandIn(options: { port?: number; apiKey?: string; webhookUrl?: string; webhookToken?: string; keepAlive?: boolean } = {}): Promise<AsaasStandIn> {
  const apiKey = options.apiKey ?? "standin-asaas-key";
  const webhookToken = options.webhookToken ?? "standin-asaas-webhook-token-0123456789";
  const customers = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Record<string, unknown> & { id: string; cycle: string; deleted: boolean; creditCard: Record<string, string> | null }>();
  const payments = new Map<string, Payment>();
  let queue: AsaasWebhook[] = [];

  const emit = (event: string, payment: Payment) => {
    const hook: AsaasWebhook = {
      headers: { "content-type": "application/json", "asaas-access-token": webhookToken },
      body: { id: `evt_${randomUUID()}`, event, dateCreated: new Date().toISOString(), payment: { object: "payment", ...payment } },
    };
    if (options.webhookUrl) {
      void fetch(options.webhookUrl, { method: "POST", headers: hook.headers, body: JSON.stringify(hook.body) }).catch(() => queue.push(hook));
    } else queue.push(hook);
  };

  const error = (res: ServerResponse, code: string, description: string, status = 400) => send(res, status, { errors: [{ code, description }] });

  /** Validates a card request; answers the card summary or writes the refusal. */
  const card = (res: ServerResponse, body: Record<string, unknown>): Record<string, string> | null | false => {
    const cc = body.creditCard as Record<string, unknown> | undefined;
    if (!cc) return null;
    const holder = body.creditCardHolderInfo as Record<string, unknown> | undefined;
    if (!body.remoteIp) return (error(res, "invalid_remoteIp", "O IP remoto é obrigatório."), false);
    if (!holder || !holder.name || !holder.cpfCnpj || !holder.postalCode || !holder.addressNumber || !holder.phone || !holder.email) {
      return (error(res, "invalid_creditCardHolderInfo", "Informe os dados do titular do cartão."), false);
    }
    const number = String(cc.number ?? "").replace(/\D/g, "");
    if (!number || !cc.holderName || !cc.expiryMonth || !cc.expiryYear || !cc.ccv) return (error(res, "invalid_creditCard", "Informe os dados do cartão."), false);
    if (ASAAS_REFUSED_CARDS.includes(number)) return (error(res, "invalid_creditCard", "Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente."), false);
    return { creditCardNumber: number.slice(-4), creditCardBrand: number.startsWith("4") ? "VISA" : number.startsWith("5") ? "MASTERCARD" : "UNKNOWN", creditCardToken: randomUUID() };
  };

  const newPayment = (body: Record<string, unknown>, subscription: string | null, dueDate: string, cc: Record<string, string> | null): Payment => {
    const id = `pay_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
    const p: Payment = {
      object: "payment",
      id,
      dateCreated: today(),
      customer: body.customer,
      subscription,
      value: Number(body.value),
      netValue: Number(body.value),
      billingType: String(body.billingType),
      status: "PENDING",
      dueDate,
      paymentDate: null,
      confirmedDate: null,
      description: body.description ?? null,
      externalReference: body.externalReference ?? null,
      invoiceUrl: `${origin}/i/${id}`,
      creditCard: cc ? { creditCardNumber: cc.creditCardNumber, creditCardBrand: cc.creditCardBrand } : null,
      deleted: false,
    };
    payments.set(id, p);
    emit("PAYMENT_CREATED", p);
    if (cc) confirm(p);
    return p;
  };
  const confirm = (p: Payment) => {
    p.status = "CONFIRMED";
    p.confirmedDate = today();
    p.paymentDate = today();
    emit("PAYMENT_CONFIRMED", p);
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const body = await readJson(req);
    const path = url.pathname;
    try {
      // Control endpoints.
      if (path === "/__webhooks" && req.method === "GET") {
        const taken = queue;
        queue = [];
        return send(res, 200, taken);
      }
      if (path === "/__reset" && req.method === "POST") {
        queue = [];
        return send(res, 200, { ok: true });
      }
      const control = /^\/__(pay|overdue|refund)$/.exec(path);
      if (control && req.method === "POST") {
        const p = payments.get(String(body.paymentId));
        if (!p) return send(res, 404, { error: "unknown payment" });
        if (control[1] === "pay") {
          p.status = "RECEIVED";
          p.paymentDate = today();
          emit("PAYMENT_RECEIVED", p);
        } else if (control[1] === "overdue") {
          p.status = "OVERDUE";
          emit("PAYMENT_OVERDUE", p);
        } else {
          p.status = "REFUNDED";
          emit("PAYMENT_REFUNDED", p);
        }
        return send(res, 200, p);
      }
      if (!path.startsWith("/v3/")) return send(res, 404, { errors: [{ code: "not_found", description: "Not found." }] });
      if (req.headers["access_token"] !== apiKey) return send(res, 401, { errors: [{ code: "invalid_access_token", description: "A chave de API fornecida é inválida." }] });

      if (path === "/v3/customers" && req.method === "POST") {
        if (!body.name) return error(res, "invalid_name", "O nome do cliente é obrigatório.");
        if (!body.cpfCnpj || !/^\d{11}(\d{3})?$/.test(String(body.cpfCnpj))) return error(res, "invalid_cpfCnpj", "O CPF/CNPJ informado é inválido.");
        const id = `cus_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
        const customer = { object: "customer", id, dateCreated: today(), ...body };
        customers.set(id, customer);
        return send(res, 200, customer);
      }
      if (path === "/v3/subscriptions" && req.method === "POST") {
        if (!customers.has(String(body.customer))) return error(res, "invalid_customer", "Cliente inexistente.");
        if (!["MONTHLY", "SEMIANNUALLY", "YEARLY", "WEEKLY", "BIWEEKLY", "BIMONTHLY", "QUARTERLY"].includes(String(body.cycle))) return error(res, "invalid_cycle", "Ciclo inválido.");
        if (!["CREDIT_CARD", "PIX", "BOLETO", "UNDEFINED"].includes(String(body.billingType))) return error(res, "invalid_billingType", "Forma de pagamento inválida.");
        if (!(Number(body.value) > 0)) return error(res, "invalid_value", "O valor deve ser maior que zero.");
        if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.nextDueDate))) return error(res, "invalid_nextDueDate", "Data de vencimento inválida.");
        const cc = body.billingType === "CREDIT_CARD" ? card(res, body) : null;
        if (cc === false) return;
        if (body.billingType === "CREDIT_CARD" && !cc) return error(res, "invalid_creditCard", "Informe os dados do cartão.");
        const id = `sub_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
        const sub = { object: "subscription", id, customer: body.customer, cycle: String(body.cycle), value: Number(body.value), billingType: body.billingType, nextDueDate: body.nextDueDate, status: "ACTIVE", deleted: false, creditCard: cc };
        subscriptions.set(id, sub);
        newPayment(body, id, String(body.nextDueDate), cc);
        return send(res, 200, sub);
      }
      let m = /^\/v3\/subscriptions\/([^/]+)(\/payments|\/creditCard)?$/.exec(path);
      if (m) {
        const sub = subscriptions.get(decodeURIComponent(m[1]!));
        if (!sub) return send(res, 404, { errors: [{ code: "not_found", description: "Assinatura não encontrada." }] });
        if (m[2] === "/payments" && req.method === "GET") {
          const data = [...payments.values()].filter((p) => p.subscription === sub.id);
          return send(res, 200, { object: "list", hasMore: false, totalCount: data.length, limit: 10, offset: 0, data });
        }
        if (m[2] === "/creditCard" && req.method === "PUT") {
          const cc = card(res, body);
          if (cc === false) return;
          if (!cc) return error(res, "invalid_creditCard", "Informe os dados do cartão.");
          sub.creditCard = cc;
          return send(res, 200, { ...sub, creditCard: { creditCardNumber: cc.creditCardNumber, creditCardBrand: cc.creditCardBrand } });
        }
        if (!m[2] && req.method === "DELETE") {
          sub.deleted = true;
          for (const p of payments.values()) {
            if (p.subscription === sub.id && (p.status === "PENDING" || p.status === "OVERDUE")) {
              p.deleted = true;
              emit("PAYMENT_DELETED", p);
            }
          }
          return send(res, 200, { deleted: true, id: sub.id });
        }
      }
      if (path === "/v3/payments" && req.method === "POST") {
        if (!customers.has(String(body.customer))) return error(res, "invalid_customer", "Cliente inexistente.");
        if (!(Number(body.value) > 0)) return error(res, "invalid_value", "O valor deve ser maior que zero.");
        if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.dueDate))) return error(res, "invalid_dueDate", "Data de vencimento inválida.");
        const cc = body.billingType === "CREDIT_CARD" ? card(res, body) : null;
        if (cc === false) return;
        return send(res, 200, newPayment(body, null, String(body.dueDate), cc));
      }
      m = /^\/v3\/payments\/([^/]+)(\/pixQrCode|\/payWithCreditCard)?$/.exec(path);
      if (m) {
        const p = payments.get(decodeURIComponent(m[1]!));
        if (!p) return send(res, 404, { errors: [{ code: "not_found", description: "Cobrança não encontrada." }] });
        if (!m[2] && req.method === "GET") return send(res, 200, p);
        if (!m[2] && req.method === "DELETE") {
          if (p.status !== "PENDING" && p.status !== "OVERDUE") return error(res, "invalid_action", "Esta cobrança não pode ser removida.");
          p.deleted = true;
          emit("PAYMENT_DELETED", p);
          return send(res, 200, { deleted: true, id: p.id });
        }
        if (m[2] === "/pixQrCode" && req.method === "GET") {
          const payload = `00020101021226800014br.gov.bcb.pix2558standin.asaas.invalid/qr/${p.id}5204000053039865802BR5913ASAAS STANDIN6009SAO PAULO62070503***6304ABCD`;
          const encodedImage = (await QRCode.toDataURL(payload)).replace(/^data:image\/png;base64,/, "");
          return send(res, 200, { encodedImage, payload, expirationDate: `${addMonths(today(), 1)} 23:59:59` });
        }
        if (m[2] === "/payWithCreditCard" && req.method === "POST") {
          if (p.status !== "PENDING" && p.status !== "OVERDUE") return error(res, "invalid_action", "Esta cobrança não pode ser paga.");
          const cc = card(res, body);
          if (cc === false) return;
          if (!cc) return error(res, "invalid_creditCard", "Informe os dados do cartão.");
          p.billingType = "CREDIT_CARD";
          p.creditCard = { creditCardNumber: cc.creditCardNumber, creditCardBrand: cc.creditCardBrand };
          confirm(p);
          return send(res, 200, p);
        }
      }
      return send(res, 404, { errors: [{ code: "not_found", description: "Recurso não encontrado." }] });
    } catch (e) {
      return send(res, 500, { errors: [{ code: "internal", description: String(e) }] });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  if (!options.keepAlive) server.unref();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    apiUrl: `${origin}/v3`,
    origin,
    apiKey,
    takeWebhooks() {
      const taken = queue;
      queue = [];
      return taken;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", Connection: "close" });
  res.end(JSON.stringify(body));
}
