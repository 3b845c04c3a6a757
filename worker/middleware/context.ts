/** The Hono environment of the app: bindings plus what middleware puts on the context. */
import type { AppEnv } from "../env";
import type { Db } from "../lib/db";
import type { UserRow, CompanyRow } from "../../schema";
import type { CompanyPermission } from "../../schema/permissions";

export type Variables = {
  db: Db;
  /** Set by requireUser. */
  user: UserRow;
  /** Set by requireCompany: the session's active company, never one from the request. */
  company: CompanyRow;
  /** The user's membership in the active company. */
  memberId: string;
  isOwner: boolean;
  permissions: ReadonlySet<CompanyPermission>;
};

export type HonoEnv = { Bindings: AppEnv; Variables: Variables };
