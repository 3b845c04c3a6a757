/**
 * Account operations shared by routes: creating a user with their own company, issuing tokens,
 * and e-mail verification (issue 8 point 4): the 6-digit code mailed at registration proves the
 * address (users.email_verified_at) and activates the companies the user owns.
 */
import { and, eq, isNull } from "drizzle-orm";
import { companies, memberRoles, members, roles, users, type UserRow } from "../../schema";
import { COMPANY_PERMISSIONS, type CompanyPermission } from "../../schema/permissions";
import { DEFAULT_LOCALE } from "../../schema/validation/common";
import type { AppEnv } from "../env";
import { randomDigits, sha256Hex } from "./crypto";
import { type Db, isUniqueViolation, now } from "./db";
import { AppError } from "./errors";
import { newId } from "./ids";
import { signSession } from "./jwt";
import { sendMail } from "./mail";
import { mailTexts } from "./mail-texts";
import type { PasswordHash } from "./password";
import { trialMs } from "./subscription";

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

/**
 * The roles a new company starts with besides the Owner (issue 9), named in the company's language
 * like the Owner role, so its first invite works without building a role first: an Administrator
 * with every permission and an Agent with chats (`tickets`), contacts and quick messages. Both are
 * ordinary roles the company may edit or delete.
 */
export const STARTER_ROLES: { permissions: readonly CompanyPermission[]; text: Record<string, { name: string; description: string }> }[] = [
  {
    permissions: COMPANY_PERMISSIONS,
    text: {
      "pt-BR": { name: "Administrador", description: "Todas as permissões." },
      "pt-PT": { name: "Administrador", description: "Todas as permissões." },
      "en-US": { name: "Administrator", description: "Every permission." },
      "es-ES": { name: "Administrador", description: "Todos los permisos." },
    },
  },
  {
    permissions: ["tickets", "contacts", "quick_messages"],
    text: {
      "pt-BR": { name: "Atendente", description: "Atendimentos, contatos e respostas rápidas." },
      "pt-PT": { name: "Agente", description: "Atendimentos, contactos e respostas rápidas." },
      "en-US": { name: "Agent", description: "Chats, contacts and quick messages." },
      "es-ES": { name: "Agente", description: "Atenciones, contactos y respuestas rápidas." },
    },
  },
];

/** An e-mail verification code is valid 24 hours (ms); a new one can be asked for (resend). */
export const EMAIL_CODE_TTL_MS = 24 * 60 * 60 * 1000;

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
  /** The franchise of the host the person registered on (issue 14): the company is created under it. */
  franchiseId?: string | null;
};

/**
 * Creates the user, a company they own on a 7-day trial, its Owner role (every permission), the
 * STARTER_ROLES and the membership, in one D1 batch (all or nothing); role names and the mail are in
 * `input.language` (default DEFAULT_LOCALE). Mails one 6-digit code, valid EMAIL_CODE_TTL_MS,
 * that both verifies the user's e-mail and activates the company (`verifyEmail`).
 * Throws 409 `email_in_use` when the e-mail is taken (also when a concurrent request wins the race).
 */
export async function createAccount(env: AppEnv, db: Db, input: NewAccount): Promise<UserRow> {
  const at = now();
  const userId = newId();
  const companyId = newId();
  const roleId = newId();
  const memberId = newId();
  const activationCode = randomDigits(6);
  const codeExpiresAt = at + EMAIL_CODE_TTL_MS;
  const language = input.language ?? DEFAULT_LOCALE;
  const ownerRole = OWNER_ROLE_TEXT[language] ?? OWNER_ROLE_TEXT[DEFAULT_LOCALE]!;
  const starterRoles = STARTER_ROLES.map((role) => {
    const text = role.text[language] ?? role.text[DEFAULT_LOCALE]!;
    return { id: newId(), companyId, name: text.name, description: text.description, permissions: [...role.permissions], isOwner: false, createdAt: at, updatedAt: at };
  });
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
    emailCodeHash: await emailCodeHash(userId, activationCode),
    emailCodeExpiresAt: codeExpiresAt,
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
        dueDate: at + trialMs(env),
        disconnected: [],
        activationCodeHash: await sha256Hex(`${companyId}:${activationCode}`),
        activatedAt: null,
        franchiseId: input.franchiseId ?? null,
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
      db.insert(roles).values(starterRoles),
      db.insert(members).values({ id: memberId, companyId, userId, createdAt: at, updatedAt: at }),
      db.insert(memberRoles).values({ companyId, memberId, roleId }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("email_in_use", "The email is already in use.", { email: "email_in_use" });
    }
    throw error;
  }
  await sendMail(env, { ...codeMail(env, input, activationCode, input.companyName, language), ...(input.franchiseId ? { companyId } : {}) });
  return user;
}

/** The verification mail in `locale` (worker/lib/mail-texts.ts): the code, what it does, how long it lasts. */
function codeMail(env: AppEnv, to: { name: string; email: string }, code: string, companyName: string | null, locale: string | null) {
  return { to: to.email, ...mailTexts(locale).code({ app: env.APP_NAME, name: to.name, code, companyName }) };
}

/**
 * The language of mails to an existing user who did not say which one: users keep no language of
 * their own, so their active company's (null without one; mailTexts then takes the default).
 */
export async function userMailLocale(db: Db, user: Pick<UserRow, "activeCompanyId">): Promise<string | null> {
  if (!user.activeCompanyId) return null;
  const row = await db.query.companies.findFirst({ where: eq(companies.id, user.activeCompanyId), columns: { language: true } });
  return row?.language ?? null;
}

/** Hash of a user's e-mail verification code as stored on the user. */
export function emailCodeHash(userId: string, code: string): Promise<string> {
  return sha256Hex(`${userId}:${code}`);
}

/**
 * Mails a new verification code to `user` (the previous one stops working), valid
 * EMAIL_CODE_TTL_MS; the companies the user owns that are not activated yet take the same code
 * as activation code. The mail is in `locale` (the language the client sent), else in the user's
 * active company's language (userMailLocale). Rate limits are the caller's.
 */
export async function sendVerificationCode(env: AppEnv, db: Db, user: Pick<UserRow, "id" | "name" | "email" | "activeCompanyId">, locale?: string | null): Promise<void> {
  const code = randomDigits(6);
  const at = now();
  const owned = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(and(eq(companies.ownerId, user.id), isNull(companies.activatedAt)));
  const codeHash = await emailCodeHash(user.id, code);
  // Hashes first: a drizzle query is thenable, so it must not be returned from an async callback.
  const hashes = await Promise.all(owned.map((company) => activationCodeHash(company.id, code)));
  const companyCodes = owned.map((company, i) =>
    db.update(companies).set({ activationCodeHash: hashes[i] ?? null, updatedAt: at }).where(eq(companies.id, company.id)),
  );
  await db.batch([
    db.update(users).set({ emailCodeHash: codeHash, emailCodeExpiresAt: at + EMAIL_CODE_TTL_MS, updatedAt: at }).where(eq(users.id, user.id)),
    ...companyCodes,
  ]);
  // The code of one company (the usual case) is sent with its franchise's brand when it has one (issue 14).
  const mail = codeMail(env, user, code, owned.length === 1 ? (owned[0]?.name ?? null) : null, locale ?? (await userMailLocale(db, user)));
  await sendMail(env, { ...mail, ...(owned.length === 1 && owned[0] ? { companyId: owned[0].id } : {}) });
}

/**
 * Checks `code` against the user's current verification code. On success marks the e-mail
 * verified, forgets the code and activates every not-yet-activated company the user owns (the code
 * was mailed for that too), and answers the updated user. Already verified: answers the user as is.
 * 400 `validation_failed` with field `code` = `invalid_code` (wrong, or no code outstanding) or
 * `expired_code` (older than EMAIL_CODE_TTL_MS: ask for a new one). Rate limits are the caller's.
 */
export async function verifyEmail(db: Db, user: UserRow, code: string): Promise<UserRow> {
  if (user.emailVerifiedAt !== null) return user;
  const at = now();
  if (!user.emailCodeHash || user.emailCodeHash !== (await emailCodeHash(user.id, code))) {
    throw new AppError("validation_failed", "The verification code is not valid.", { code: "invalid_code" });
  }
  if ((user.emailCodeExpiresAt ?? 0) <= at) {
    throw new AppError("validation_failed", "The verification code has expired. Ask for a new one.", { code: "expired_code" });
  }
  const [updated] = await db.batch([
    db.update(users).set({ emailVerifiedAt: at, emailCodeHash: null, emailCodeExpiresAt: null, updatedAt: at }).where(eq(users.id, user.id)).returning(),
    db
      .update(companies)
      .set({ activatedAt: at, activationCodeHash: null, updatedAt: at })
      .where(and(eq(companies.ownerId, user.id), isNull(companies.activatedAt))),
  ]);
  return updated[0] ?? { ...user, emailVerifiedAt: at, emailCodeHash: null, emailCodeExpiresAt: null };
}

/** Hash of an activation code as stored on the company. */
export function activationCodeHash(companyId: string, code: string): Promise<string> {
  return sha256Hex(`${companyId}:${code}`);
}
