/**
 * Helpers for the contacts, registers, CRM and quick-message tests: unique valid phones, valid
 * identity documents, and creating tags, custom fields, contacts and CRM columns through the API.
 */
import type { ContactAnswer, CrmColumnAnswer, CustomFieldAnswer, TagAnswer } from "../../schema/api-types";
import { call, expectStatus } from "./helpers";

let counter = 0;

/** A valid Brazilian mobile number in E.164, unique per call in this test run. */
export function uniquePhone(): string {
  counter += 1;
  return `+551197${String((Date.now() % 100_000) * 100 + counter).padStart(7, "0").slice(-7)}`;
}

/** Phones `+5511970000000 + start + i`, for bulk tests (distinct and valid). */
export function phoneAt(i: number): string {
  return `+551197${String(i).padStart(7, "0")}`;
}

/** Identity documents with valid check digits (and their compact stored forms). */
export const DOCS = {
  cpf: "529.982.247-25",
  cnpj: "11.222.333/0001-81",
  dni: "12345678Z",
  nie: "X1234567L",
  cuit: "20-12345678-6",
};

export async function createTag(token: string, name: string, color = "#22c55e"): Promise<TagAnswer> {
  return expectStatus<TagAnswer>(await call("POST", "/api/tags", { token, body: { name, color } }), 201);
}

export async function createField(token: string, body: Record<string, unknown>): Promise<CustomFieldAnswer> {
  return expectStatus<CustomFieldAnswer>(await call("POST", "/api/custom-fields", { token, body }), 201);
}

export async function createContact(token: string, body: Record<string, unknown> = {}): Promise<ContactAnswer> {
  const res = await call("POST", "/api/contacts", { token, body: { name: "Maria Silva", phone: uniquePhone(), ...body } });
  return expectStatus<ContactAnswer>(res, 201);
}

export async function createColumn(token: string, name: string): Promise<CrmColumnAnswer> {
  return expectStatus<CrmColumnAnswer>(await call("POST", "/api/crm/columns", { token, body: { name } }), 201);
}
