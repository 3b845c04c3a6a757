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
