/** Request bodies of the company, member, invite and role calls (spec §7). */
import { z } from "zod";
import { COMPANY_PERMISSIONS } from "../permissions";
import { emailSchema, idSchema, nameSchema } from "./common";

/** POST /api/companies/invite */
export const inviteInput = z.object({
  email: emailSchema,
  roles: z.array(idSchema).min(1, { error: "roles_required" }).max(50),
});

/** PUT /api/companies/members/{id} */
export const memberUpdateInput = z.object({
  roles: z.array(idSchema).min(1, { error: "roles_required" }).max(50),
});

/** POST /api/companies/active-code */
export const activeCodeInput = z.object({
  code: z.string({ error: "required" }).trim().regex(/^\d{6}$/, { error: "invalid_code" }),
});

/** POST /api/companies/roles and PUT /api/companies/roles/{id} */
export const roleInput = z.object({
  name: nameSchema,
  description: z.string().trim().max(500, { error: "too_long" }).default(""),
  permissions: z.array(z.enum(COMPANY_PERMISSIONS, { error: "invalid_permission" })).max(COMPANY_PERMISSIONS.length),
});
export type RoleInput = z.input<typeof roleInput>;

/** Stop words in effect when a company set none (issue 10 "Opt-out"; `companies.opt_out_words` null). */
export const DEFAULT_OPT_OUT_WORDS = ["SAIR", "PARAR", "STOP"] as const;
/** At most this many stop words per company, each at most MAX_OPT_OUT_WORD_LENGTH characters. */
export const MAX_OPT_OUT_WORDS = 20;
export const MAX_OPT_OUT_WORD_LENGTH = 40;

/**
 * The `optOutWords` field of PUT /api/companies/active (a multipart text): words separated by
 * commas or new lines, trimmed, blanks dropped, duplicates (ignoring case) kept once. Blank text
 * means "the defaults" (null). 400 `optOutWords: too_many` above MAX_OPT_OUT_WORDS, `too_long` for
 * a word above MAX_OPT_OUT_WORD_LENGTH characters.
 */
export const optOutWordsText = z
  .string({ error: "invalid_type" })
  .max(2000, { error: "too_long" })
  .transform((text) => {
    const words: string[] = [];
    for (const part of text.split(/[,\n\r]+/)) {
      const word = part.trim();
      if (word && !words.some((w) => w.toLowerCase() === word.toLowerCase())) words.push(word);
    }
    return words;
  })
  .refine((words) => words.length <= MAX_OPT_OUT_WORDS, { error: "too_many" })
  .refine((words) => words.every((w) => w.length <= MAX_OPT_OUT_WORD_LENGTH), { error: "too_long" })
  .transform((words) => (words.length ? words : null));
