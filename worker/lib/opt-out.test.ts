/**
 * Opt-out (issue 10): a customer's stop word (the company's, or SAIR, PARAR, STOP) marks the
 * contact opted out and takes it out of every shipping cycle; a later message does not undo it;
 * only a member does (POST /api/contacts/{id}/opt-in).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactAnswer, CompanyAnswer } from "../../schema/api-types";
import type { ContactCycleAnswer, CycleEnrolAnswer, ShippingCycleAnswer } from "../../schema/validation/shipping-cycles";
import { isStopWord } from "./opt-out";
import { activeCompanyId, call, expectInvalid, expectStatus, form, register } from "../test/helpers";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";

async function optedOutAt(contactId: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT opted_out_at FROM contacts WHERE id = ?").bind(contactId).first<{ opted_out_at: number | null }>();
  return row?.opted_out_at ?? null;
}

describe("stop words", () => {
  it("match ignoring case, accents and surrounding spaces, and nothing else", () => {
    expect(isStopWord("  sair ", null)).toBe(true);
    expect(isStopWord("Sáir", null)).toBe(true);
    expect(isStopWord("PARAR", null)).toBe(true);
    expect(isStopWord("stop\n", null)).toBe(true);
    expect(isStopWord("quero sair", null)).toBe(false);
    expect(isStopWord("stopp", null)).toBe(false);
    expect(isStopWord("", null)).toBe(false);
    expect(isStopWord("Cancelar", ["cancelar", "não quero"])).toBe(true);
    expect(isStopWord("NAO QUERO", ["cancelar", "não quero"])).toBe(true);
    // A company's own list replaces the defaults.
    expect(isStopWord("sair", ["cancelar"])).toBe(false);
  });
});

describe("opt-out from an inbound message", () => {
  it("a stop word opts the contact out and takes it out of every cycle; a later message does not re-subscribe it; a member does", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    const companyId = await activeCompanyId(owner.token);
    const identity = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE company_id = ? AND external_id = ?").bind(companyId, waId).first<{ contact_id: string }>();
    const contactId = identity?.contact_id ?? "";
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Novidades" } }], [["start", "next", "t"]]));
    const cycles: ShippingCycleAnswer[] = [];
    for (const name of ["Nutrição", "Reativação"]) {
      cycles.push(await expectStatus<ShippingCycleAnswer>(await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name, steps: [{ flowId: flow.id, wait: { value: 1, unit: "day" } }] } }), 201));
    }
    for (const cycle of cycles) await expectStatus(await call("POST", `/api/shipping-cycles/${cycle.id}/contacts`, { token: owner.token, body: { contactIds: [contactId] } }), 200);
    const listed = async () => expectStatus<ContactCycleAnswer[]>(await call("GET", `/api/contacts/${contactId}/shipping-cycles`, { token: owner.token }), 200);
    expect(await listed()).toHaveLength(2);
    expect(await optedOutAt(contactId)).toBeNull();

    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "  Sáir "));
    const first = await optedOutAt(contactId);
    expect(first).not.toBeNull();
    expect(await listed()).toEqual([]);
    const answer = await expectStatus<ContactAnswer>(await call("GET", `/api/contacts/${contactId}`, { token: owner.token }), 200);
    expect(answer.optedOutAt).toBe(first);

    // A later ordinary message changes nothing; enrolling again is refused with the reason.
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi de novo"));
    expect(await optedOutAt(contactId)).toBe(first);
    const refused = await expectStatus<CycleEnrolAnswer>(await call("POST", `/api/shipping-cycles/${cycles[0]?.id}/contacts`, { token: owner.token, body: { contactIds: [contactId] } }), 200);
    expect(refused).toEqual({ enrolled: [], skipped: [{ contactId, reason: "opted_out" }] });

    // A member clears it.
    expect(await expectStatus(await call("POST", `/api/contacts/${contactId}/opt-in`, { token: owner.token }), 200)).toEqual({ id: contactId, optedOutAt: null });
    expect(await optedOutAt(contactId)).toBeNull();
    const enrolled = await expectStatus<CycleEnrolAnswer>(await call("POST", `/api/shipping-cycles/${cycles[0]?.id}/contacts`, { token: owner.token, body: { contactIds: [contactId] } }), 200);
    expect(enrolled.enrolled).toEqual([contactId]);
  });

  it("uses the company's own stop words once set (Settings → Company), and the defaults when cleared", async () => {
    const owner = await register();
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: owner.token }), 200);
    expect(company.optOutWords).toBeNull();
    const save = (words: string) => call("PUT", "/api/companies/active", { token: owner.token, form: form({ timezone: company.timezone, showAttendantName: "false", optOutWords: words }) });
    const saved = await expectStatus<CompanyAnswer>(await save("Cancelar, não quero\nCANCELAR"), 200);
    expect(saved.optOutWords).toEqual(["Cancelar", "não quero"]);
    await expectInvalid(await save(Array.from({ length: 21 }, (_, i) => `w${i}`).join(",")), "optOutWords", "too_many");

    const connection = await cloudConnection(owner.token);
    const companyId = await activeCompanyId(owner.token);
    const contactOf = async (waId: string) =>
      (await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE company_id = ? AND external_id = ?").bind(companyId, waId).first<{ contact_id: string }>())?.contact_id ?? "";
    const stays = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, stays, wamid(), "SAIR"));
    expect(await optedOutAt(await contactOf(stays))).toBeNull();
    const leaves = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, leaves, wamid(), "nao quero"));
    expect(await optedOutAt(await contactOf(leaves))).not.toBeNull();

    expect((await expectStatus<CompanyAnswer>(await save(""), 200)).optOutWords).toBeNull();
    await deliverOk(textWebhook(connection.phoneNumberId, stays, wamid(), "stop"));
    expect(await optedOutAt(await contactOf(stays))).not.toBeNull();
  });
});
