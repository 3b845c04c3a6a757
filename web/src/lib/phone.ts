/**
 * Phone numbers as people read them: the API stores E.164 (`+5511988880015`); screens show the
 * international format of libphonenumber-js (`+55 11 98888 0015`). Anything that does not parse is
 * shown as stored.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/** `+5511988880015` → `+55 11 98888 0015`; null/empty → "". */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return "";
  const parsed = parsePhoneNumberFromString(phone);
  return parsed?.isValid() ? parsed.formatInternational() : phone;
}
