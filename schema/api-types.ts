/**
 * Shapes the API answers, shared by worker and web. Times are ms UTC.
 */
import type { CompanyPermission } from "./permissions";
import type { DisconnectedEntry, PaymentStatus, Plan } from "./companies";
import type { CustomFieldKind, CustomFieldType } from "./custom-fields";
import type { ReferralAnswer } from "./realtime";

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
  /**
   * Whether the user proved they own `email` with the code mailed to it (issue 8 point 4); until
   * then invites are not shown (GET /api/me/invites answers []) nor answerable (403).
   */
  emailVerified: boolean;
  /** Whether the user is a platform administrator (PLATFORM_ADMINS; issue 12): the Admin area. */
  platformAdmin: boolean;
  /**
   * Whether the user administers a franchise (issue 14): the /franchise area. Answered by GET /api/me
   * (false while FRANCHISE_MODE is off); other answers leave it out.
   */
  franchiseAdmin?: boolean;
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
  /**
   * Stop words set by the company (issue 10 "Opt-out"); null: the defaults SAIR, PARAR, STOP
   * (DEFAULT_OPT_OUT_WORDS). Optional only for answers built before this field existed.
   */
  optOutWords?: string[] | null;
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

// ---------------------------------------------------------------------------------------------
// Contacts, custom fields, tags, CRM, quick messages (issue 4; spec §3)
// ---------------------------------------------------------------------------------------------

/** A tag as lists and contacts show it. `color` is `#rrggbb`. */
export type TagAnswer = { id: string; name: string; color: string; createdAt: number };

/**
 * A custom field. Built-ins have kind `default`, id `default:<key>`, `readOnly: true` and
 * `createdAt: null`. `value` is a bot field's company-wide value (null otherwise). A field with a
 * `formula` is computed (read-only per contact).
 */
export type CustomFieldAnswer = {
  id: string;
  name: string;
  key: string;
  type: CustomFieldType;
  kind: CustomFieldKind;
  formula: string | null;
  value: string | null;
  readOnly: boolean;
  createdAt: number | null;
};

/**
 * A contact as the list shows it. `fields`: the stored values of its `user` fields by field id
 * (normalised text: numbers as decimal text, dates YYYY-MM-DD, datetimes ms UTC as text).
 */
export type ContactAnswer = {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  document: string | null;
  image: string | null;
  tags: { id: string; name: string; color: string }[];
  fields: Record<string, string>;
  crmColumnId: string | null;
  lastMessageAt: number | null;
  /**
   * When the contact answered a stop word (issue 10 "Opt-out"), ms UTC; null when subscribed.
   * Cleared only by POST /api/contacts/{id}/opt-in. Optional for answers built without it.
   */
  optedOutAt?: number | null;
  createdAt: number;
  updatedAt: number;
};

/** GET /api/contacts. `totalCapped`: a filtered count stopped at its cap (`total` is then a lower bound). */
export type ContactPage = Page<ContactAnswer> & { totalCapped: boolean };

/**
 * One field's value for one contact, built-ins and formulas computed. `error` says why a computed
 * value is missing (`missing_value`, `division_by_zero`, `not_finite`).
 */
export type ContactFieldValueAnswer = {
  id: string;
  key: string;
  name: string;
  type: CustomFieldType;
  kind: CustomFieldKind;
  value: string | null;
  readOnly: boolean;
  error?: string;
};

/** A ticket of a contact (its page lists them, newest first). */
export type ContactTicketAnswer = {
  id: string;
  status: "pending" | "open" | "closed";
  connection: { id: string; name: string; channel: string } | null;
  lastMessageAt: number;
  lastMessagePreview: string;
  createdAt: number;
  closedAt: number | null;
};

/**
 * GET /api/contacts/{id}: the contact, every field's value, its latest tickets, and the ad it last
 * came from (WhatsApp `referral`; null when none).
 */
export type ContactDetailAnswer = ContactAnswer & { values: ContactFieldValueAnswer[]; tickets: ContactTicketAnswer[]; referral: ReferralAnswer | null };

/** POST /api/contacts/bulk. `done: false` when a filter matched more than one call handles: call again. */
export type ContactBulkAnswer = { affected: number; done: boolean };

/** A CRM column (spec §3 CRM column), in board order. */
export type CrmColumnAnswer = { id: string; name: string; color: string; position: number };

/** A contact's card on the CRM board. */
export type CrmCardAnswer = {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  image: string | null;
  tags: { id: string; name: string; color: string }[];
  columnId: string;
  position: number;
};

/** A column of GET /api/crm/board with its first page of cards. */
export type CrmBoardColumn = CrmColumnAnswer & { contacts: CrmCardAnswer[]; cursor: string | null; total: number };

/** A quick message. `media.url` is a signed URL valid for hours (GET again for a fresh one). */
export type QuickMessageAnswer = {
  id: string;
  name: string;
  text: string;
  media: { url: string; mime: string; name: string | null; size: number | null } | null;
  createdAt: number;
  updatedAt: number;
};

/** POST /api/quick-messages/{id}/render: the text with its variables filled in. */
export type RenderedQuickMessage = { text: string; media: QuickMessageAnswer["media"] };

// ---------------------------------------------------------------------------------------------
// Jobs: contact import and export on the `jobs` queue (issue 4 "Import and export")
// ---------------------------------------------------------------------------------------------

/**
 * A job's progress, as GET /api/jobs/{id} and the hub's `job.updated` event show it. `processed`,
 * `total` and `errors` count data rows (import) or contacts (export); `total` is 0 until known.
 * `errorMessage`: why a failed job failed, a user-facing sentence.
 */
export type JobProgress = {
  id: string;
  type: "import" | "export" | "cleanup";
  status: "uploaded" | "queued" | "running" | "done" | "failed";
  processed: number;
  total: number;
  errors: number;
  errorMessage: string | null;
  /**
   * Why a failed job failed, as a stable code the web translates (an import: `damaged`,
   * `encrypted`, `unsupported`, `zip_bomb`, `not_xlsx`, `too_many_rows`, `file_missing`…); null
   * when the job did not fail or its failure has no code (then `errorMessage` says why).
   */
  errorCode: string | null;
};

/**
 * GET /api/jobs/{id}: progress plus signed, expiring download URLs (valid 6 h; GET again for fresh
 * ones): `resultUrl` the exported .xlsx, `reportUrl` the import's refused rows (.xlsx: row, reason
 * and the row's values). Times in ms UTC.
 */
export type JobAnswer = JobProgress & { resultUrl: string | null; reportUrl: string | null; createdAt: number; updatedAt: number };

/** Where an import column goes: a contact attribute, a custom field (`field:<id>`) or nowhere. */
export type ImportTarget = "name" | "phone" | "email" | "document" | "tags" | "ignore" | `field:${string}`;

/** One sheet of an uploaded workbook, in tab order; only `worksheet`s can be imported. */
export type ImportSheetAnswer = { index: number; name: string; kind: "worksheet" | "chartsheet" | "other"; hidden: boolean };

/**
 * POST /api/contacts/import → 201 (and POST /api/jobs/{id}/preview → 200): the job (status
 * `uploaded`), the header row, up to 5 data rows (cells as text, dates as ISO), and a mapping
 * guessed from the headers (column index → target). `sheets` lists the workbook's sheets and
 * `sheet` the index read (by default the first worksheet with data); `headerRow` is the sheet row
 * of the headers, `previewRows` the sheet row of each preview row, `headerCandidates` the first
 * non-empty rows (row number and a short text) the user may pick as header instead.
 */
export type ImportUploadAnswer = {
  jobId: string;
  headers: string[];
  preview: string[][];
  suggestedMapping: Record<string, ImportTarget>;
  sheets: ImportSheetAnswer[];
  sheet: number;
  headerRow: number;
  previewRows: number[];
  headerCandidates: { row: number; text: string }[];
};

// ---- Rejected provider events (issue 8 §7; worker/routes/rejected-events.ts) ---------------------

/**
 * A provider event kept because it could not be placed. `reason`: a machine code
 * (`no_sender_identity`, `unknown_message_type`, `reaction_target_unknown`, ...); `detail`: an
 * English sentence; `receivedAt` ms UTC; `size` of the raw payload in bytes.
 */
export type RejectedEventAnswer = { id: string; reason: string; detail: string; receivedAt: number; size: number };

/** GET /api/connections/{id}/rejected-events: newest first; `total` is the connection's count of rejected events. */
export type RejectedEventPage = { results: RejectedEventAnswer[]; cursor: string | null; total: number };
