/** The Hono environment of the app: bindings plus what middleware puts on the context. */
import type { AppEnv } from "../env";
import type { Db } from "../lib/db";
import type { UserRow, CompanyRow, FranchiseRow } from "../../schema";
import type { CompanyPermission } from "../../schema/permissions";
import type { ApiKeyIdentity } from "../lib/api-keys";
import type { Feature } from "../lib/features";

export type Variables = {
  db: Db;
  /**
   * Set by requireUser for a user's session. NOT set for a request made with a company API key
   * (`apiKey` is set instead): only the routes of PUBLIC_API_ROUTES (worker/lib/api-keys.ts) run for
   * keys, and they read the actor through `apiKey` first; every other route refuses a key before its
   * handler runs.
   */
  user: UserRow;
  /**
   * Set by requireUser when the request carries a company API key: the integration identity (its
   * id, company and scopes). What such a request does is recorded as done by this key.
   */
  apiKey?: ApiKeyIdentity;
  /** Set by requireCompany: the session's (or the key's) company, never one from the request. */
  company: CompanyRow;
  /** Set by requireCompany: the company's features (worker/lib/features.ts), computed once per request. */
  features: ReadonlySet<Feature>;
  /** The user's membership in the active company; NOT set for an API key (no member acts). */
  memberId: string;
  isOwner: boolean;
  /** The member's permissions, or for an API key those its scopes stand for (SCOPE_PERMISSIONS). */
  permissions: ReadonlySet<CompanyPermission>;
  /** Set by requireFranchiseAdmin (worker/middleware/franchise.ts): the franchise the user administers. */
  franchise: FranchiseRow;
};

export type HonoEnv = { Bindings: AppEnv; Variables: Variables };
