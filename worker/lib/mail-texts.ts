/**
 * The texts of the mails the worker sends (issue 9 "mails go out in the recipient's language"), one
 * small table per product locale (pt-BR, pt-PT, en-US, es-ES). These are not lingui catalogs: the
 * worker has no i18n runtime and a mail is a handful of sentences. Which locale a mail takes:
 * - the verification code at registration: the language the client sent (`Accept-Language`), which
 *   is also the new company's language;
 * - a resent code and a password reset: the language the client sent, else the language of the
 *   user's active company (users have no language of their own);
 * - an invite: the recipient's language when they have an account (their active company's), else the
 *   inviting company's (the recipient may not have an account yet).
 */
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../schema/validation/common";

/** What the verification-code mail needs. */
export type CodeMailArgs = { app: string; name: string; code: string; companyName: string | null };
/** What the password-reset mail needs. */
export type ResetMailArgs = { app: string; name: string; link: string };
/** What the invite mail needs. */
export type InviteMailArgs = { app: string; inviter: string; companyName: string; loginUrl: string };

/** Subject and plain-text body. */
export type MailText = { subject: string; text: string };

/** One locale's mails. */
export type MailTexts = {
  code: (a: CodeMailArgs) => MailText;
  reset: (a: ResetMailArgs) => MailText;
  invite: (a: InviteMailArgs) => MailText;
};

const ptBR: MailTexts = {
  code: (a) => ({
    subject: `${a.app}: seu código de verificação ${a.code}`,
    text: `Olá, ${a.name},\n\nSeu código de verificação é ${a.code}.\nDigite-o no ${a.app} para verificar seu endereço de e-mail${a.companyName ? ` e ativar ${a.companyName}` : ""}. Ele vale por 24 horas.\nSe você não criou uma conta, ignore esta mensagem.\n`,
  }),
  reset: (a) => ({
    subject: `${a.app}: redefina sua senha`,
    text: `Olá, ${a.name},\n\nPara escolher uma nova senha, abra este link em até uma hora:\n${a.link}\n\nSe você não pediu isso, ignore esta mensagem.\n`,
  }),
  invite: (a) => ({
    subject: `${a.app}: ${a.inviter} convidou você para ${a.companyName}`,
    text: `${a.inviter} convidou você para participar de ${a.companyName} no ${a.app}.\nEntre (ou crie sua conta com este e-mail e confirme-a com o código que enviaremos) em ${a.loginUrl} para aceitar ou recusar o convite.\n`,
  }),
};

const ptPT: MailTexts = {
  code: (a) => ({
    subject: `${a.app}: o seu código de verificação ${a.code}`,
    text: `Olá, ${a.name},\n\nO seu código de verificação é ${a.code}.\nIntroduza-o no ${a.app} para verificar o seu endereço de e-mail${a.companyName ? ` e ativar ${a.companyName}` : ""}. É válido durante 24 horas.\nSe não criou uma conta, ignore esta mensagem.\n`,
  }),
  reset: (a) => ({
    subject: `${a.app}: redefina a sua palavra-passe`,
    text: `Olá, ${a.name},\n\nPara escolher uma nova palavra-passe, abra esta ligação no prazo de uma hora:\n${a.link}\n\nSe não o pediu, ignore esta mensagem.\n`,
  }),
  invite: (a) => ({
    subject: `${a.app}: ${a.inviter} convidou-o para ${a.companyName}`,
    text: `${a.inviter} convidou-o para se juntar a ${a.companyName} no ${a.app}.\nInicie sessão (ou crie a sua conta com este e-mail e confirme-a com o código que lhe enviaremos) em ${a.loginUrl} para aceitar ou recusar o convite.\n`,
  }),
};

const enUS: MailTexts = {
  code: (a) => ({
    subject: `${a.app}: your verification code ${a.code}`,
    text: `Hello ${a.name},\n\nYour verification code is ${a.code}.\nEnter it in ${a.app} to verify your e-mail address${a.companyName ? ` and activate ${a.companyName}` : ""}. It is valid for 24 hours.\nIf you did not create an account, ignore this message.\n`,
  }),
  reset: (a) => ({
    subject: `${a.app}: reset your password`,
    text: `Hello ${a.name},\n\nTo choose a new password open this link within one hour:\n${a.link}\n\nIf you did not ask for it, ignore this message.\n`,
  }),
  invite: (a) => ({
    subject: `${a.app}: ${a.inviter} invited you to ${a.companyName}`,
    text: `${a.inviter} invited you to join ${a.companyName} on ${a.app}.\nSign in (or create your account with this e-mail, then confirm it with the code we mail you) at ${a.loginUrl} to accept or reject the invite.\n`,
  }),
};

const esES: MailTexts = {
  code: (a) => ({
    subject: `${a.app}: tu código de verificación ${a.code}`,
    text: `Hola, ${a.name}:\n\nTu código de verificación es ${a.code}.\nIntrodúcelo en ${a.app} para verificar tu dirección de correo electrónico${a.companyName ? ` y activar ${a.companyName}` : ""}. Es válido durante 24 horas.\nSi no creaste una cuenta, ignora este mensaje.\n`,
  }),
  reset: (a) => ({
    subject: `${a.app}: restablece tu contraseña`,
    text: `Hola, ${a.name}:\n\nPara elegir una nueva contraseña, abre este enlace en el plazo de una hora:\n${a.link}\n\nSi no lo has pedido, ignora este mensaje.\n`,
  }),
  invite: (a) => ({
    subject: `${a.app}: ${a.inviter} te ha invitado a ${a.companyName}`,
    text: `${a.inviter} te ha invitado a unirte a ${a.companyName} en ${a.app}.\nInicia sesión (o crea tu cuenta con este correo y confírmala con el código que te enviaremos) en ${a.loginUrl} para aceptar o rechazar la invitación.\n`,
  }),
};

/**
 * The code in a verification mail of any locale (tests and the e2e support read the dev outbox
 * with it): "verification code is 123456", "código de verificação é …", "código de verificación es …".
 */
export const VERIFICATION_CODE_IN_MAIL = /(?:verification code is|código de verificação é|código de verificación es) (\d{6})/;

/** The mail texts of each product locale. */
export const MAIL_TEXTS: Record<Locale, MailTexts> = { "pt-BR": ptBR, "pt-PT": ptPT, "en-US": enUS, "es-ES": esES };

/** Narrows a stored or sent language to a product locale. */
export function isLocale(value: string | null | undefined): value is Locale {
  return (LOCALES as readonly (string | null | undefined)[]).includes(value);
}

/** The mail texts of `locale`, those of DEFAULT_LOCALE when it is not a product locale. */
export function mailTexts(locale: string | null | undefined): MailTexts {
  return MAIL_TEXTS[isLocale(locale) ? locale : DEFAULT_LOCALE];
}

/**
 * The first product locale an `Accept-Language` header asks for (`pt-PT` exactly; any other `pt`
 * → pt-BR; `es*` → es-ES; `en*` → en-US; quality values are not weighed, the order is), or null
 * when it names none.
 */
export function localeFromHeader(header: string | null | undefined): Locale | null {
  const wanted = (header ?? "").split(",").map((part) => part.split(";")[0]?.trim().toLowerCase() ?? "");
  for (const tag of wanted) {
    if (tag === "pt-pt") return "pt-PT";
    if (tag.startsWith("pt")) return "pt-BR";
    if (tag.startsWith("es")) return "es-ES";
    if (tag.startsWith("en")) return "en-US";
  }
  return null;
}
