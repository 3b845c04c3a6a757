/**
 * Shapes the API answers, shared by worker and web. Times are ms UTC.
 */
import type { CompanyPermission } from "./permissions";
import type { DisconnectedEntry, PaymentStatus, Plan } from "./companies";

/** The error envelope of every non-2xx answer (DESIGN.md "API conventions"). */
export type ApiErrorBody = {
  error: { code: string; message: string; fields?: Record<string, string> };
};

export type MeAnswer = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  image: string | null;
  status: "online" | "offline";
  activeCompany: string | null;
};

export type CompanyAnswer = {
  id: string;
  name: string;
  image: string | null;
  timezone: string;
  language: string;
  showAttendantName: boolean;
  apiKeyHint: string | null;
  whatsappNumber: string | null;
  owner: string;
  plan: Plan;
  paymentStatus: PaymentStatus;
  dueDate: number;
  disconnected: DisconnectedEntry[];
  activated: boolean;
  /** Whether the subscription currently grants access (trial or paid/pending and not past due). */
  subscriptionValid: boolean;
};

export type RoleAnswer = {
  id: string;
  name: string;
  description: string;
  permissions: CompanyPermission[];
  isOwner: boolean;
};

export type MemberAnswer = {
  id: string;
  userId: string;
  name: string;
  email: string;
  image: string | null;
  status: "online" | "offline";
  isOwner: boolean;
  roles: { id: string; name: string }[];
};

export type InviteAnswer = {
  id: string;
  email: string;
  status: "pending" | "accepted" | "rejected" | "cancelled";
  roles: { id: string; name: string }[];
  company: { id: string; name: string };
  createdAt: number;
};

export type AnnouncementAnswer = { id: string; title: string; body: string; url: string | null; createdAt: number };

export type Page<T> = { results: T[]; cursor: string | null; total: number };

/** GET /api/runtime-settings: public settings read before sign-in (spec §1). */
export type RuntimeSettings = {
  appName: string;
  franchiseMode: boolean;
  primaryColor: string;
};
