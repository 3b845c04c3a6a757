/**
 * Meta Conversions API user data (the facebook pixel block). Meta's "Customer information
 * parameters" page: `em`, `ph`, `fn`, `ln`, `external_id` are normalised, then SHA-256 hashed
 * (lower-case hex) before sending.
 *
 * `step` is synchronous, so the engine emits the `pixel` effect with the NORMALISED values and the
 * performer calls `hashPixelUserData` (async WebCrypto, available in workerd and browsers) right
 * before posting to `https://graph.facebook.com/<version>/<pixelId>/events`.
 */
import type { PixelUserData } from "./types";

/** An e-mail as Meta hashes it: trimmed, lower-case; null when it is not an address. */
export function normalizePixelEmail(email: string): string | null {
  const value = email.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? value : null;
}

/** A phone as Meta hashes it: digits only, with the country code, no leading zeros; null when too short. */
export function normalizePixelPhone(phone: string): string | null {
  const digits = phone.replace(/\D/g, "").replace(/^0+/, "");
  return digits.length >= 7 ? digits : null;
}

/** A first or last name as Meta hashes it: lower-case, no punctuation, symbols or spaces (UTF-8 letters kept). */
export function normalizePixelName(name: string): string | null {
  const value = name
    .trim()
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]/gu, "");
  return value || null;
}

/**
 * The contact's user data, normalised, keys present only when there is a value.
 * `firstName`/`lastName` as split from the contact's name; `externalId` the contact id.
 */
export function pixelUserData(input: { email: string | null; phone: string | null; firstName: string; lastName: string; externalId: string }): PixelUserData {
  const data: PixelUserData = {};
  const em = input.email ? normalizePixelEmail(input.email) : null;
  const ph = input.phone ? normalizePixelPhone(input.phone) : null;
  const fn = normalizePixelName(input.firstName);
  const ln = normalizePixelName(input.lastName);
  if (em) data.em = [em];
  if (ph) data.ph = [ph];
  if (fn) data.fn = [fn];
  if (ln) data.ln = [ln];
  if (input.externalId) data.external_id = [input.externalId];
  return data;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function hashAll(values: readonly string[] | undefined): Promise<string[] | undefined> {
  return values ? Promise.all(values.map(sha256Hex)) : undefined;
}

/** `data` with every value SHA-256 hashed (lower-case hex), as the Conversions API expects. */
export async function hashPixelUserData(data: PixelUserData): Promise<PixelUserData> {
  const [em, ph, fn, ln, externalId] = await Promise.all([hashAll(data.em), hashAll(data.ph), hashAll(data.fn), hashAll(data.ln), hashAll(data.external_id)]);
  const hashed: PixelUserData = {};
  if (em) hashed.em = em;
  if (ph) hashed.ph = ph;
  if (fn) hashed.fn = fn;
  if (ln) hashed.ln = ln;
  if (externalId) hashed.external_id = externalId;
  return hashed;
}
