/**
 * Field validators shared by the worker (request parsing) and the web (forms).
 * Rules: spec §5 (password ≥ 8, valid e-mail, name, phone).
 */
import { z } from "zod";

/** Minimum password length (spec §9). */
export const MIN_PASSWORD_LENGTH = 8;
/** Upper bound so a hash request cannot be made arbitrarily expensive. */
export const MAX_PASSWORD_LENGTH = 256;

export const LOCALES = ["pt-BR", "pt-PT", "en-US", "es-ES"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "pt-BR";

export const emailSchema = z
  .string({ error: "required" })
  .trim()
  .toLowerCase()
  .max(254, { error: "too_long" })
  .pipe(z.email({ error: "invalid_email" }));

export const passwordSchema = z
  .string({ error: "required" })
  .min(MIN_PASSWORD_LENGTH, { error: "password_too_short" })
  .max(MAX_PASSWORD_LENGTH, { error: "too_long" });

/** A person's or company's name: 2 to 120 characters after trimming, at least one letter or digit. */
export const nameSchema = z
  .string({ error: "required" })
  .trim()
  .min(2, { error: "name_too_short" })
  .max(120, { error: "too_long" })
  .regex(/[\p{L}\p{N}]/u, { error: "invalid_name" });

/** UUID-shaped id in a path or body. */
export const idSchema = z.string().uuid({ error: "invalid_id" });

/** IANA time zone accepted by Intl. */
export const timezoneSchema = z
  .string({ error: "required" })
  .trim()
  .refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: tz });
        return tz.length > 0;
      } catch {
        return false;
      }
    },
    { error: "invalid_timezone" },
  );
