/**
 * Parsers of the answers the pages before sign-in read (POST /api/login, /api/forgot-password, GET
 * /api/runtime-settings, /api/infos), written without zod so /login does not download it (issue 9
 * "Load only what a screen needs": zod is 25 KiB gzip). Each has zod's `safeParse` shape
 * (`AnswerSchema` of api.ts) and accepts exactly what the zod schema it replaced accepted: extra
 * keys are dropped, a wrong type fails the answer (answers-boot.test.ts compares them).
 */
import type { AnswerSchema } from "./api";
import type { RuntimeSettings } from "../../../schema/api-types";
import type { TokenAnswer } from "../../../schema/validation/auth";

type Parsed<T> = { success: true; data: T } | { success: false };
const FAIL = { success: false } as const;
const ok = <T>(data: T): Parsed<T> => ({ success: true, data });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** POST /api/login, /api/register, /api/reset-password → {token} (a non-empty string). */
export const tokenAnswer: AnswerSchema<TokenAnswer> = {
  safeParse: (value) => (isRecord(value) && typeof value.token === "string" && value.token.length > 0 ? ok({ token: value.token }) : FAIL),
};

/** POST /api/forgot-password → {ok: true}. */
export const okAnswer: AnswerSchema<{ ok: true }> = {
  safeParse: (value) => (isRecord(value) && value.ok === true ? ok({ ok: true }) : FAIL),
};

/** GET /api/runtime-settings → RuntimeSettings. */
export const runtimeSettings: AnswerSchema<RuntimeSettings> = {
  safeParse: (value) =>
    isRecord(value) && typeof value.appName === "string" && typeof value.franchiseMode === "boolean" && typeof value.primaryColor === "string"
      ? ok({ appName: value.appName, franchiseMode: value.franchiseMode, primaryColor: value.primaryColor })
      : FAIL,
};

/** GET /api/infos: the franchise's branding (spec §3 "Franchise info"; issue 14 adds primaryColor). */
export type FranchiseInfo = { name: string | null; logo: string | null; favicon: string | null; primaryColor: string | null; notInCompany?: string | null };

/** A string, else null (a missing, null or mistyped field degrades to null). */
const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** GET /api/infos → FranchiseInfo; unexpected or missing fields degrade to null (an object is required). */
export const franchiseInfo: AnswerSchema<FranchiseInfo> = {
  safeParse: (value) =>
    isRecord(value)
      ? ok({
          name: stringOrNull(value.name),
          logo: stringOrNull(value.logo),
          favicon: stringOrNull(value.favicon),
          primaryColor: stringOrNull(value.primaryColor),
          notInCompany: stringOrNull(value.notInCompany),
        })
      : FAIL,
};
