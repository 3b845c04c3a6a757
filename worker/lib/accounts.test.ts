/**
 * A new company's starter roles and the language of account mails (issue 9 "The same rule
 * everywhere"): an Administrator with every permission and an Agent with chats, contacts and quick
 * messages, named in the company's language; mails in the recipient's language (mail-texts.ts).
 */
import { describe, expect, it } from "vitest";
import type { RoleAnswer } from "../../schema/api-types";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import { call, expectStatus, invite, mailTo, register, uniqueEmail, verifyEmail, type Account } from "../test/helpers";

/** Registers with `Accept-Language: language` and verifies the e-mail. */
async function registerIn(language: string, name = "Ana Souza"): Promise<Account> {
  const body = { name, email: uniqueEmail(), phone: "+55 11 98765-4321", password: "correct horse battery", companyName: "Loja Verde" };
  const { token } = await expectStatus<{ token: string }>(await call("POST", "/api/register", { body, headers: { "Accept-Language": language } }), 201);
  const account = { token, email: body.email.toLowerCase(), password: body.password, name };
  await verifyEmail(account);
  return account;
}

async function roles(owner: Account): Promise<RoleAnswer[]> {
  return expectStatus<RoleAnswer[]>(await call("GET", "/api/companies/roles", { token: owner.token }), 200);
}

/** The reset mail to `email` (its body containing `phrase`) after asking for one with `headers`. */
async function resetMail(email: string, phrase: string, headers: Record<string, string> = {}) {
  await expectStatus(await call("POST", "/api/forgot-password", { body: { email }, headers }), 200);
  return mailTo(email, phrase);
}

describe("a new company starts with useful roles", () => {
  it("an Administrator with every permission and an Agent with tickets, contacts and quick messages, named in the company's language", async () => {
    const owner = await register();
    const list = await roles(owner);
    const admin = list.find((r) => r.name === "Administrador");
    const agent = list.find((r) => r.name === "Atendente");
    expect(admin, JSON.stringify(list)).toBeDefined();
    expect(admin?.isOwner).toBe(false);
    expect([...(admin?.permissions ?? [])].sort()).toEqual([...COMPANY_PERMISSIONS].sort());
    expect(agent?.isOwner).toBe(false);
    expect([...(agent?.permissions ?? [])].sort()).toEqual(["contacts", "quick_messages", "tickets"]);

    const english = await roles(await registerIn("en-US"));
    expect(english.map((r) => r.name).sort()).toEqual(["Administrator", "Agent", "Owner"]);
    const spanish = await roles(await registerIn("es-ES"));
    expect(spanish.map((r) => r.name).sort()).toEqual(["Administrador", "Agente", "Propietario"]);
  });

  it("the first invite works with the Agent role, without building a role first", async () => {
    const owner = await register();
    const agent = (await roles(owner)).find((r) => r.name === "Atendente");
    if (!agent) throw new Error("no Agent role");
    const sent = await invite(owner, uniqueEmail("agent"), [agent.id]);
    expect(sent.roles.map((r) => r.id)).toEqual([agent.id]);
  });
});

describe("mails go out in the recipient's language", () => {
  it("the verification code is mailed in the language the client registered in", async () => {
    const body = { name: "Ana Souza", email: uniqueEmail(), phone: "+55 11 98765-4321", password: "correct horse battery", companyName: "Loja Verde" };
    await expectStatus(await call("POST", "/api/register", { body, headers: { "Accept-Language": "es-ES" } }), 201);
    const mail = await mailTo(body.email.toLowerCase(), "código de verificación");
    expect(mail.subject).toContain("tu código de verificación");
  });

  it("an invite from a pt-BR company is in Portuguese", async () => {
    const owner = await register();
    const agent = (await roles(owner)).find((r) => !r.isOwner);
    if (!agent) throw new Error("no role to invite with");
    const email = uniqueEmail("convite");
    await invite(owner, email, [agent.id]);
    const mail = await mailTo(email, "convidou você");
    expect(mail.subject).toContain("convidou você para Padaria Central");
    expect(mail.body_text).toContain("para aceitar ou recusar o convite");
  });

  it("an invite from an en-US company is in English", async () => {
    const owner = await registerIn("en-US");
    const agent = (await roles(owner)).find((r) => r.name === "Agent");
    if (!agent) throw new Error("no Agent role");
    const email = uniqueEmail("invite");
    await invite(owner, email, [agent.id]);
    expect((await mailTo(email, "invited you")).subject).toContain("invited you to Loja Verde");
  });

  it("a reset for an es-ES user is in Spanish, and follows the language the client asks in", async () => {
    const user = await registerIn("es-ES", "Lucía Pérez");
    const spanish = await resetMail(user.email, "Para elegir una nueva contraseña");
    expect(spanish.subject).toContain("restablece tu contraseña");
    expect(spanish.body_text).toContain("Hola, Lucía Pérez:");
    expect(spanish.body_text).toMatch(/reset-password\?token=/);
    const english = await resetMail(user.email, "To choose a new password", { "Accept-Language": "en-US,en;q=0.9" });
    expect(english.subject).toContain("reset your password");
    expect(english.body_text).toContain("Hello Lucía Pérez");
  });
});
