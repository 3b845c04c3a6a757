/**
 * The franchise's settings and e-mail forms (issue 14; spec §3 "Franchise admin settings"; PUT
 * /api/franchise multipart, schema/validation/franchise.ts `franchiseSettingsForm`). Both tabs send
 * only their own fields; absent fields stay as they are on the server.
 */
import { z } from "zod";
import { nameSchema } from "../../../../../schema/validation/common";
import { FRANCHISE_TEXT_MAX, type FranchiseSettingsAnswer } from "../../../../../schema/validation/franchise";
import type { ImageChange } from "@/features/settings/lib/form-fields";

/** `#rrggbb` (or `#rgb`), any case: the colour inputs' rule (400 `invalid_color` on the server). */
export const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Validation of the settings tab; logo and favicon travel beside it as {@link ImageChange}s. */
export const settingsFormSchema = z.object({
  name: nameSchema,
  /** Blank: the product's own colour. */
  primaryColor: z.string().trim().refine((value) => value === "" || HEX_COLOR.test(value), { error: "invalid_color" }),
  notInCompany: z.string().max(FRANCHISE_TEXT_MAX, { error: "too_long" }),
  notPaid: z.string().max(FRANCHISE_TEXT_MAX, { error: "too_long" }),
  sendEmailToUnpaidCompany: z.boolean(),
});
export type SettingsValues = z.input<typeof settingsFormSchema>;

/** The settings tab's starting values. */
export function settingsDefaults(settings: FranchiseSettingsAnswer): SettingsValues {
  return {
    name: settings.name,
    primaryColor: settings.primaryColor ?? "",
    notInCompany: settings.notInCompany,
    notPaid: settings.notPaid,
    sendEmailToUnpaidCompany: settings.sendEmailToUnpaidCompany,
  };
}

/** How an image field travels: the file when replaced, "null" when removed, absent when kept. */
function setImage(form: FormData, field: string, change: ImageChange): void {
  if (change.kind === "set") form.set(field, change.file);
  else if (change.kind === "remove") form.set(field, "null");
}

/**
 * The multipart body of the settings tab: name, primaryColor ("" = the product's), the two texts,
 * sendEmailToUnpaidCompany ("true"/"false"), and logo/favicon per their change.
 */
export function buildSettingsForm(values: SettingsValues, logo: ImageChange, favicon: ImageChange): FormData {
  const form = new FormData();
  form.set("name", values.name.trim());
  form.set("primaryColor", values.primaryColor.trim().toLowerCase());
  form.set("notInCompany", values.notInCompany.trim());
  form.set("notPaid", values.notPaid.trim());
  form.set("sendEmailToUnpaidCompany", values.sendEmailToUnpaidCompany ? "true" : "false");
  setImage(form, "logo", logo);
  setImage(form, "favicon", favicon);
  return form;
}

/** Validation of the e-mail tab: SMTP user, host, port (1–65535) and a password (blank = keep the stored one). */
export const emailFormSchema = z.object({
  mailUser: z.string().trim().max(254, { error: "too_long" }),
  mailHost: z
    .string()
    .trim()
    .max(253, { error: "too_long" })
    .refine((value) => value === "" || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(value), { error: "invalid_hostname" }),
  mailPort: z
    .string()
    .trim()
    .refine((value) => value === "" || (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535), { error: "invalid_port" }),
  mailPassword: z.string().max(500, { error: "too_long" }),
});
export type EmailValues = z.input<typeof emailFormSchema>;

/** The e-mail tab's starting values (the password is never known: blank). */
export function emailDefaults(settings: FranchiseSettingsAnswer): EmailValues {
  return { mailUser: settings.mailUser ?? "", mailHost: settings.mailHost ?? "", mailPort: settings.mailPort === null ? "" : String(settings.mailPort), mailPassword: "" };
}

/**
 * The multipart body of the e-mail tab: mailUser, mailHost, mailPort ("" clears each); mailPassword
 * only when typed (blank keeps the stored one) or "null" when `removePassword`.
 */
export function buildEmailForm(values: EmailValues, removePassword = false): FormData {
  const form = new FormData();
  form.set("mailUser", values.mailUser.trim());
  form.set("mailHost", values.mailHost.trim().toLowerCase());
  form.set("mailPort", values.mailPort.trim());
  if (removePassword) form.set("mailPassword", "null");
  else if (values.mailPassword !== "") form.set("mailPassword", values.mailPassword);
  return form;
}
