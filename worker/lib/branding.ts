/**
 * Franchise branding (issue 14 "Branding at the first byte"; spec §1 "the title and favicon come
 * from franchise info"; DESIGN.md "Franchises").
 *
 * - `infosOf`: the `/api/infos` answer of a host: its franchise's name, logo, favicon and colour, or
 *   the product's (APP_NAME, PRIMARY_COLOR).
 * - `rewriteAppHtml`: for a franchise host, the app's HTML (every SPA route: index.html) rewritten
 *   with HTMLRewriter so the first response already carries the franchise's `<title>`, favicon
 *   `<link rel=icon>`, `<meta name=theme-color>`, og:title / og:site_name and a `<style>` setting the
 *   primary-colour CSS variables (`--primary`, `--primary-foreground`). The CSP allows inline styles
 *   (style-src 'unsafe-inline', worker/lib/security-headers.ts); no script is added. Every value is
 *   escaped by HTMLRewriter (`setAttribute`, `setInnerContent` as text) and the colour is validated
 *   `#rrggbb` before it reaches the style element.
 * - Logo and favicon are raster images stored by worker/lib/images.ts (typed by their bytes, never
 *   SVG) and served from our origin by /api/files/images/… (media sandbox CSP, nosniff).
 * - `presentFranchiseSettings`, `presentHostname`: the answers of /api/franchise and the Admin area;
 *   never the SMTP password nor the Asaas key (only `mailPasswordSet`, `asaasApiKeySet`).
 * - `mailSenderForCompany`: the name, logo and SMTP of a franchise company's mails.
 */
import { and, eq } from "drizzle-orm";
import { companies, franchises, type FranchiseHostnameRow, type FranchiseRow } from "../../schema";
import type { FranchiseHostnameAnswer, FranchiseSettingsAnswer, InfosAnswer } from "../../schema/validation/franchise";
import type { AppEnv } from "../env";
import { getDb } from "./db";
import { encryptionSecret } from "./keys";
import { decryptSecret } from "./secrets";
import { franchiseModeOn, type FranchiseBrand } from "./franchise-host";
import { primaryTextVariables } from "../../schema/brand-colors";

/** Same-origin URL of a stored image, versioned by the franchise's last change. */
export function brandImageUrl(key: string | null): string | null {
  return key ? `/api/files/${key}` : null;
}

const COLOR = /^#[0-9a-f]{6}$/;

/** The `/api/infos` answer for a host whose franchise is `brand` (null: the product's own). */
export function infosOf(env: Pick<AppEnv, "APP_NAME" | "PRIMARY_COLOR" | "FRANCHISE_MODE">, brand: FranchiseBrand | null): InfosAnswer {
  if (!brand) {
    return { name: env.APP_NAME, logo: null, favicon: null, primaryColor: env.PRIMARY_COLOR ?? null, franchiseMode: franchiseModeOn(env), franchise: false, notInCompany: null };
  }
  return {
    name: brand.name,
    logo: brandImageUrl(brand.logoKey),
    favicon: brandImageUrl(brand.faviconKey),
    primaryColor: brand.primaryColor && COLOR.test(brand.primaryColor) ? brand.primaryColor : (env.PRIMARY_COLOR ?? null),
    franchiseMode: true,
    franchise: true,
    notInCompany: brand.notInCompany?.trim() || null,
  };
}

/** Relative luminance (WCAG 2) of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(1 + offset, 3 + offset), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** Dark text on light brand colours: the same rule as web/src/lib/branding.ts `foregroundFor`. */
const DARK_TEXT = "#111827";

/** White or dark text on `hex`, whichever contrasts more (WCAG 2.1 §1.4.3). */
export function foregroundOn(hex: string): string {
  const lum = luminance(hex);
  const dark = luminance(DARK_TEXT);
  const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return ratio(lum, 1) >= ratio(lum, dark) ? "#ffffff" : DARK_TEXT;
}

/**
 * The inline style the rewritten HTML carries: the primary colour as the app's CSS variables
 * (web/src/index.css `--primary`, `--primary-foreground`; `--color-primary` and `--ring` follow them),
 * and its readable text colour on each theme (`--primary-on-light`, `--primary-on-dark`; schema/brand-colors.ts).
 * Empty for anything but `#rrggbb`.
 */
export function brandStyle(color: string): string {
  if (!COLOR.test(color)) return "";
  // The colour as text on each theme (issue 9), as web/src/lib/branding.ts applies it later.
  const text = primaryTextVariables(color);
  const onThemes = text ? `--primary-on-light:${text["--primary-on-light"]};--primary-on-dark:${text["--primary-on-dark"]};` : "";
  return `:root,.dark{--primary:${color};--primary-foreground:${foregroundOn(color)};${onThemes}}`;
}

/** Whether a response is the app's HTML (what the rewrite applies to). */
export function isHtmlResponse(response: Response): boolean {
  return (response.headers.get("Content-Type") ?? "").toLowerCase().startsWith("text/html");
}

/**
 * The app's HTML `response` rebranded for `brand` (see the file header). Non-HTML answers are
 * returned unchanged. Elements absent from the page are added to `<head>`.
 */
export function rewriteAppHtml(response: Response, brand: FranchiseBrand): Response {
  if (!isHtmlResponse(response)) return response;
  const favicon = brandImageUrl(brand.faviconKey) ?? brandImageUrl(brand.logoKey);
  const color = brand.primaryColor && COLOR.test(brand.primaryColor) ? brand.primaryColor : null;
  const seen = { title: false, icon: false, theme: false, ogTitle: false, ogSite: false };
  const rewriter = new HTMLRewriter()
    .on("title", {
      element(el) {
        seen.title = true;
        el.setInnerContent(brand.name);
      },
    })
    .on("link[rel~=icon]", {
      element(el) {
        if (!favicon) return;
        if (seen.icon) {
          el.remove();
          return;
        }
        seen.icon = true;
        el.setAttribute("href", favicon);
        el.removeAttribute("type");
        el.removeAttribute("sizes");
      },
    })
    .on("link[rel=apple-touch-icon]", {
      element(el) {
        if (favicon) el.setAttribute("href", favicon);
      },
    })
    .on("meta[name=theme-color]", {
      element(el) {
        seen.theme = true;
        if (color) el.setAttribute("content", color);
      },
    })
    .on('meta[property="og:title"]', {
      element(el) {
        seen.ogTitle = true;
        el.setAttribute("content", brand.name);
      },
    })
    .on('meta[property="og:site_name"]', {
      element(el) {
        seen.ogSite = true;
        el.setAttribute("content", brand.name);
      },
    })
    .on("meta[name=application-name], meta[name=apple-mobile-web-app-title]", {
      element(el) {
        el.setAttribute("content", brand.name);
      },
    })
    .on("head", {
      element(el) {
        el.onEndTag((end) => {
          const parts: string[] = [];
          if (!seen.title) parts.push(`<title>${escapeHtml(brand.name)}</title>`);
          if (favicon && !seen.icon) parts.push(`<link rel="icon" href="${escapeHtml(favicon)}">`);
          if (color && !seen.theme) parts.push(`<meta name="theme-color" content="${color}">`);
          if (!seen.ogTitle) parts.push(`<meta property="og:title" content="${escapeHtml(brand.name)}">`);
          if (!seen.ogSite) parts.push(`<meta property="og:site_name" content="${escapeHtml(brand.name)}">`);
          if (color) parts.push(`<style data-franchise-brand>${brandStyle(color)}</style>`);
          end.before(parts.join(""), { html: true });
        });
      },
    });
  const out = rewriter.transform(response);
  // The body changed: its length and any validator of the original no longer hold.
  const headers = new Headers(out.headers);
  headers.delete("Content-Length");
  headers.delete("ETag");
  headers.set("Cache-Control", "no-cache");
  headers.append("Vary", "Host");
  return new Response(out.body, { status: out.status, statusText: out.statusText, headers });
}

/** Minimal HTML escaping for text and double-quoted attribute values we write ourselves. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
}

/** A franchise hostname as answered to admins. */
export function presentHostname(row: FranchiseHostnameRow): FranchiseHostnameAnswer {
  return {
    id: row.id,
    hostname: row.hostname,
    status: row.status,
    sslStatus: row.sslStatus,
    records: row.verificationRecords ?? [],
    createdAt: row.createdAt,
  };
}

/** GET /api/franchise's answer; secrets only as `…Set` booleans. */
export function presentFranchiseSettings(row: FranchiseRow, hostnames: FranchiseHostnameRow[]): FranchiseSettingsAnswer {
  return {
    id: row.id,
    name: row.name,
    logo: brandImageUrl(row.logoKey),
    favicon: brandImageUrl(row.faviconKey),
    primaryColor: row.primaryColor,
    notInCompany: row.notInCompany,
    notPaid: row.notPaid,
    sendEmailToUnpaidCompany: row.sendEmailToUnpaidCompany,
    mailUser: row.mailUser,
    mailHost: row.mailHost,
    mailPort: row.mailPort,
    mailPasswordSet: !!row.mailPassword,
    asaasApiKeySet: !!row.asaasApiKey,
    hostnames: hostnames.map(presentHostname),
    updatedAt: row.updatedAt,
  };
}

/**
 * Who a mail of a franchise company is from and how it leaves: `name` (display name of From),
 * `logoUrl` (absolute, for the mail's HTML part) and the franchise's own SMTP when it set one.
 */
export type MailSender = {
  name: string;
  logoUrl: string | null;
  smtp: { host: string; port: number; user: string | null; password: string | null; from: string } | null;
};

/** The mail sender of franchise `row` (decrypts its SMTP password; a password that fails to decrypt is left out). */
export async function mailSenderOfFranchise(env: Pick<AppEnv, "JWT_SECRET" | "SECRETS_KEY" | "PUBLIC_URL">, row: FranchiseRow): Promise<MailSender> {
  let password: string | null = null;
  if (row.mailPassword) {
    try {
      password = await decryptSecret(encryptionSecret(env), row.mailPassword);
    } catch {
      password = null;
    }
  }
  const logo = brandImageUrl(row.logoKey);
  let logoUrl: string | null = null;
  if (logo) {
    try {
      logoUrl = new URL(logo, env.PUBLIC_URL).toString();
    } catch {
      logoUrl = null;
    }
  }
  const from = row.mailUser && row.mailUser.includes("@") ? row.mailUser : null;
  return {
    name: row.name,
    logoUrl,
    smtp: row.mailHost && from ? { host: row.mailHost, port: row.mailPort ?? 587, user: row.mailUser, password, from } : null,
  };
}

/**
 * The sender of mails about company `companyId`: its franchise's (name, logo, SMTP) when franchise
 * mode is on and the company belongs to a franchise; null otherwise (the product's own sender).
 */
export async function mailSenderForCompany(env: AppEnv, companyId: string): Promise<MailSender | null> {
  if (!franchiseModeOn(env)) return null;
  const db = getDb(env.DB);
  const [row] = await db
    .select({ franchise: franchises })
    .from(companies)
    .innerJoin(franchises, eq(franchises.id, companies.franchiseId))
    .where(and(eq(companies.id, companyId)))
    .limit(1);
  return row ? mailSenderOfFranchise(env, row.franchise) : null;
}
