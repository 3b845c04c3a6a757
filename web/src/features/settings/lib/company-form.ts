/**
 * The company settings form (spec §2 settings tab "company", §3 Company, §5 "Company update always
 * sends timezone and showAttendantName; name and image only if present; image null means remove",
 * §7 PUT /companies/active multipart).
 */
import { z } from "zod";
import { LOCALES, nameSchema, timezoneSchema, type Locale } from "../../../../../schema/validation/common";
import { phoneSchema } from "../../../../../schema/validation/phone";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { optionalField, type ImageChange } from "./form-fields";

/** Validation of the company form; the logo travels beside it as an {@link ImageChange}. */
export const companyFormSchema = z.object({
  name: nameSchema,
  timezone: timezoneSchema,
  language: z.enum(LOCALES, { error: "required" }),
  showAttendantName: z.boolean(),
  whatsappNumber: optionalField(phoneSchema),
  /** Stop words, separated by commas (issue 10 "Opt-out"); blank = the defaults. Absent: not sent. */
  optOutWords: z.string().max(2000, { error: "too_long" }).optional(),
});

/** The form's values as typed. */
export type CompanyValues = z.input<typeof companyFormSchema>;

/** The form's starting values for `company` (an unknown language falls back to pt-BR). */
export function companyDefaults(company: CompanyAnswer): CompanyValues {
  const language: Locale = LOCALES.find((locale) => locale === company.language) ?? "pt-BR";
  return {
    name: company.name,
    timezone: company.timezone,
    language,
    showAttendantName: company.showAttendantName,
    whatsappNumber: company.whatsappNumber ?? "",
    optOutWords: (company.optOutWords ?? []).join(", "),
  };
}

/**
 * The multipart body of PUT /api/companies/active: `timezone` and `showAttendantName` ("true" /
 * "false") always; `name` only when present; `image` as the file when replaced, as the text
 * "null" when removed, absent when kept; `language` always (one of the four); `whatsappNumber`
 * when not blank; `optOutWords` (comma-separated stop words, blank = the defaults) when in the values.
 */
export function buildCompanyForm(values: CompanyValues, image: ImageChange): FormData {
  const form = new FormData();
  form.set("timezone", values.timezone.trim());
  form.set("showAttendantName", values.showAttendantName ? "true" : "false");
  const name = values.name.trim();
  if (name) form.set("name", name);
  if (image.kind === "set") form.set("image", image.file);
  else if (image.kind === "remove") form.set("image", "null");
  form.set("language", values.language);
  const whatsapp = values.whatsappNumber.trim();
  if (whatsapp) form.set("whatsappNumber", whatsapp);
  // Blank text resets the stop words to the defaults; undefined leaves them as they are.
  if (values.optOutWords !== undefined) form.set("optOutWords", values.optOutWords.trim());
  return form;
}
