/**
 * Account operations shared by routes: creating a user with their own company, issuing tokens.
 */
import { companies, memberRoles, members, roles, users, type UserRow } from "../../schema";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import { DEFAULT_LOCALE } from "../../schema/validation/common";
import type { AppEnv } from "../env";
import { randomDigits, sha256Hex } from "./crypto";
import { type Db, isUniqueViolation, now } from "./db";
import { AppError } from "./errors";
import { newId } from "./ids";
import { signSession } from "./jwt";
import { sendMail } from "./mail";
import type { PasswordHash } from "./password";
import { TRIAL_MS } from "./subscription";

/**
 * The Owner role's name and description in the company's language (it is company data, shown to
 * every member as is; the product's four locales).
 */
export const OWNER_ROLE_TEXT: Record<string, { name: string; description: string }> = {
  "pt-BR": { name: "Proprietário", description: "Todas as permissões. Pertence ao proprietário da empresa." },
  "pt-PT": { name: "Proprietário", description: "Todas as permissões. Pertence ao proprietário da empresa." },
  "en-US": { name: "Owner", description: "Every permission. The company's owner holds it." },
  "es-ES": { name: "Propietario", description: "Todos los permisos. Pertenece al propietario de la empresa." },
};

/** Time zone of a new company until its owner changes it. */
export const DEFAULT_TIMEZONE = "America/Sao_Paulo";

/** A session token for the user at their current token version. */
export function issueToken(env: AppEnv, user: Pick<UserRow, "id" | "tokenVersion">): Promise<string> {
  return signSession(env.JWT_SECRET, { sub: user.id, ver: user.tokenVersion });
}

export type NewAccount = {
  name: string;
  email: string;
  phone: string;
  password: PasswordHash;
  companyName: string;
  language?: string;
};

/**
 * Creates the user, a company they own on a 7-day trial, its Owner role (every permission) and the
 * membership, in one D1 batch (all or nothing). Mails the company's activation code.
 * Throws 409 `email_in_use` when the e-mail is taken (also when a concurrent request wins the race).
 */
export async function createAccount(env: AppEnv, db: Db, input: NewAccount): Promise<UserRow> {
  const at = now();
  const userId = newId();
  const companyId = newId();
  const roleId = newId();
  const memberId = newId();
  const activationCode = randomDigits(6);
  const ownerRole = OWNER_ROLE_TEXT[input.language ?? DEFAULT_LOCALE] ?? OWNER_ROLE_TEXT[DEFAULT_LOCALE]!;
  const user: UserRow = {
    id: userId,
    name: input.name,
    email: input.email,
    phone: input.phone,
    imageKey: null,
    passwordHash: input.password.hash,
    passwordSalt: input.password.salt,
    passwordIterations: input.password.iterations,
    tokenVersion: 0,
    activeCompanyId: companyId,
    status: "online",
    emailVerifiedAt: null,
    emailCodeHash: null,
    emailCodeExpiresAt: null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.batch([
      db.insert(users).values(user),
      db.insert(companies).values({
        id: companyId,
        name: input.companyName,
        imageKey: null,
        timezone: DEFAULT_TIMEZONE,
        language: input.language ?? DEFAULT_LOCALE,
        showAttendantName: false,
        apiKeyHash: null,
        apiKeyHint: null,
        whatsappNumber: null,
        ownerId: userId,
        plan: "trial",
        paymentStatus: "trial",
        dueDate: at + TRIAL_MS,
        disconnected: [],
        activationCodeHash: await sha256Hex(`${companyId}:${activationCode}`),
        activatedAt: null,
        franchiseId: null,
        createdAt: at,
        updatedAt: at,
      }),
      db.insert(roles).values({
        id: roleId,
        companyId,
        name: ownerRole.name,
        description: ownerRole.description,
        permissions: [...COMPANY_PERMISSIONS],
        isOwner: true,
        createdAt: at,
        updatedAt: at,
      }),
      db.insert(members).values({ id: memberId, companyId, userId, createdAt: at, updatedAt: at }),
      db.insert(memberRoles).values({ companyId, memberId, roleId }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("email_in_use", "The email is already in use.", { email: "email_in_use" });
    }
    throw error;
  }
  await sendMail(env, {
    to: input.email,
    subject: `${env.APP_NAME}: your activation code`,
    text: `Hello ${input.name},\n\nYour activation code for ${input.companyName} is ${activationCode}.\nEnter it in ${env.APP_NAME} to activate your account.\n`,
  });
  return user;
}

/** Hash of an activation code as stored on the company. */
export function activationCodeHash(companyId: string, code: string): Promise<string> {
  return sha256Hex(`${companyId}:${code}`);
}
