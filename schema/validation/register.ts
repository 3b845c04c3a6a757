/**
 * Request body of POST /api/register (spec §7; issue "Foundation" accounts section), apart from
 * auth.ts because it validates a phone number: the login form imports auth.ts and must not load
 * libphonenumber-js (issue 9 "Load only what a screen needs").
 */
import { z } from "zod";
import { emailSchema, nameSchema, passwordSchema } from "./common";
import { phoneSchema } from "./phone";

/** POST /api/register */
export const registerInput = z.object({
  name: nameSchema,
  email: emailSchema,
  phone: phoneSchema,
  password: passwordSchema,
  companyName: nameSchema,
});
export type RegisterInput = z.input<typeof registerInput>;
