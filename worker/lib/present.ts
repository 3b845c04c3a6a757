/**
 * Row → answer mappers, so every route answers the same shapes (schema/api-types.ts).
 */
import type { CompanyRow, UserRow, RoleRow } from "../../schema";
import type { CompanyAnswer, MeAnswer, RoleAnswer } from "../../schema/api-types";
import { subscriptionValid } from "./subscription";
import type { AppEnv } from "../env";
import { isPlatformAdmin } from "../middleware/platform-admin";

/** Public URL of an R2 object served by GET /api/files/{key}. */
export function fileUrl(key: string | null): string | null {
  return key ? `/api/files/${key}` : null;
}

/** The signed-in user as GET /api/me answers it; `platformAdmin` from the PLATFORM_ADMINS setting. */
export function presentMe(user: UserRow, env: Pick<AppEnv, "PLATFORM_ADMINS">): MeAnswer {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    image: fileUrl(user.imageKey),
    status: user.status,
    activeCompany: user.activeCompanyId,
    emailVerified: user.emailVerifiedAt !== null,
    platformAdmin: isPlatformAdmin(env, user.email),
  };
}

export function presentCompany(company: CompanyRow, at = Date.now()): CompanyAnswer {
  return {
    id: company.id,
    name: company.name,
    image: fileUrl(company.imageKey),
    timezone: company.timezone,
    language: company.language,
    showAttendantName: company.showAttendantName,
    apiKeyHint: company.apiKeyHint ? `••••••••${company.apiKeyHint}` : null,
    whatsappNumber: company.whatsappNumber,
    owner: company.ownerId,
    plan: company.plan,
    paymentStatus: company.paymentStatus,
    dueDate: company.dueDate,
    disconnected: company.disconnected,
    activated: company.activatedAt !== null,
    subscriptionValid: subscriptionValid(company, at),
    optOutWords: company.optOutWords,
  };
}

export function presentRole(role: RoleRow): RoleAnswer {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    permissions: role.permissions,
    isOwner: role.isOwner,
  };
}
