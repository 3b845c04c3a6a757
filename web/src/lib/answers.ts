/**
 * Runtime parsers of the API answers the web reads, one per type of schema/api-types.ts. Each is
 * typed against the shared type, so a change of the contract fails to compile here, and an
 * unexpected answer fails loudly at the edge instead of deep in a component.
 */
import { z } from "zod";
import type {
  AnnouncementAnswer,
  CrmBoardColumn,
  CrmCardAnswer,
  CrmColumnAnswer,
  Page,
  QuickMessageAnswer,
  RenderedQuickMessage,
  ContactAnswer,
  ContactBulkAnswer,
  ContactDetailAnswer,
  ContactPage,
  CustomFieldAnswer,
  ImportTarget,
  ImportUploadAnswer,
  JobAnswer,
  JobProgress,
  TagAnswer,
  InviteAnswer,
  MemberAnswer,
  RoleAnswer,
  RejectedEventPage,
} from "../../../schema/api-types";
import { COMPANY_PERMISSIONS } from "../../../schema/permissions";
import { API_KEY_SCOPES, CUSTOM_FIELD_KINDS, CUSTOM_FIELD_TYPES, FLOW_TYPES, KEYWORD_RULE_TYPES } from "../../../schema/enums";
import type { ApiKeyAnswer, ApiKeyCreatedAnswer } from "../../../schema/validation/api-keys";
import type { MessageAnswer, ReferralAnswer, RoomEvent, TicketAnswer } from "../../../schema/realtime";
import type { MessageStatus, MessageType, TicketStatus } from "../../../schema/tickets";
import type { Json } from "../../../schema/columns";
import { isImportTarget } from "../../../schema/validation/import-targets";
import type { DefaultFlowsAnswer, FlowMediaAnswer, FlowRunAnswer, FlowStatsAnswer, FlowSummary, FlowTriggersAnswer, FolderAnswer, KeywordAnswer, PublishAnswer, SharedFlowAnswer, ShareRefusal } from "../../../schema/flow-api";
import type { FlowDocument } from "../../../schema/flows";

export * from "./answers-core";

/** One entry of GET /api/me/invites. */
export const inviteAnswer: z.ZodType<InviteAnswer> = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(["pending", "accepted", "rejected", "cancelled"]),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  company: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.number(),
});

/** GET /api/companies/members (one entry), PUT /api/companies/members/{id} → MemberAnswer. */
export const memberAnswer: z.ZodType<MemberAnswer> = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
  status: z.enum(["online", "offline"]),
  isOwner: z.boolean(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** GET /api/companies/roles (one entry), POST / PUT /api/companies/roles → RoleAnswer. */
export const roleAnswer: z.ZodType<RoleAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(z.enum(COMPANY_PERMISSIONS)),
  isOwner: z.boolean(),
});

/** GET /api/companies/active/api-keys (one entry), DELETE …/api-keys/{id} → ApiKeyAnswer. */
export const apiKeyAnswer: z.ZodType<ApiKeyAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
});

/** POST /api/companies/active/api-keys → the new key: as listed, plus the key (shown once). */
export const apiKeyCreatedAnswer: z.ZodType<ApiKeyCreatedAnswer> = z.intersection(apiKeyAnswer, z.object({ key: z.string().min(1) }));

/** GET /api/me/announcements?code= → {results}. */
export const announcementList: z.ZodType<{ results: AnnouncementAnswer[] }> = z.object({
  results: z.array(
    z.object({ id: z.string(), title: z.string(), body: z.string(), url: z.string().nullable(), createdAt: z.number() }),
  ),
});

// ---- Chat centre (schema/realtime.ts) -------------------------------------------------------

const MESSAGE_TYPE_NAMES: Record<MessageType, true> = {
  text: true,
  image: true,
  audio: true,
  video: true,
  document: true,
  sticker: true,
  ptv: true,
  contact: true,
  location: true,
  buttons: true,
  list: true,
  button_reply: true,
  list_reply: true,
  reaction: true,
  order: true,
  flow_reply: true,
  system: true,
  unsupported: true,
};
const MESSAGE_STATUS_NAMES: Record<MessageStatus, true> = { pending: true, sent: true, delivered: true, read: true, failed: true, received: true };
const TICKET_STATUS_NAMES: Record<TicketStatus, true> = { pending: true, open: true, closed: true };

/** A message type; a type this web does not know yet degrades to `unsupported` ('Waiting for this message.'). */
const messageType: z.ZodType<MessageType> = z
  .custom<MessageType>((value) => typeof value === "string" && Object.hasOwn(MESSAGE_TYPE_NAMES, value))
  .catch("unsupported");
const messageStatus: z.ZodType<MessageStatus> = z.custom<MessageStatus>(
  (value) => typeof value === "string" && Object.hasOwn(MESSAGE_STATUS_NAMES, value),
);
const ticketStatus: z.ZodType<TicketStatus> = z.custom<TicketStatus>(
  (value) => typeof value === "string" && Object.hasOwn(TICKET_STATUS_NAMES, value),
);

const jsonPrimitive = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const jsonLeaf = z.union([jsonPrimitive, z.array(jsonPrimitive)]);
const jsonShallow = z.union([jsonLeaf, z.record(z.string(), jsonLeaf)]);
/** schema/columns.ts `Json` (two levels deep). */
const json: z.ZodType<Json> = z.union([jsonShallow, z.array(jsonShallow), z.record(z.string(), z.union([jsonShallow, z.array(jsonShallow)]))]);

/** One message (REST and sockets). A payload deeper than `Json` degrades to null instead of failing the page. */
export const messageAnswer: z.ZodType<MessageAnswer> = z.object({
  id: z.string(),
  ticketId: z.string(),
  contactId: z.string(),
  direction: z.enum(["in", "out"]),
  type: messageType,
  body: z.string(),
  payload: z.record(z.string(), json).nullable().catch(null),
  media: z.object({ url: z.string(), mime: z.string(), name: z.string().nullable(), size: z.number().nullable() }).nullable(),
  quoted: z.object({ id: z.string(), body: z.string(), type: messageType, direction: z.enum(["in", "out"]) }).nullable(),
  status: messageStatus,
  error: z.object({ code: z.string(), message: z.string(), details: z.string().nullable().catch(null) }).nullable(),
  sentAt: z.number(),
  seq: z.number(),
  sender: z.object({ memberId: z.string().nullable(), name: z.string().nullable() }).nullable(),
  deleted: z.boolean(),
  editedAt: z.number().nullable().catch(null),
  forwarded: z.boolean().catch(false),
  reactions: z.array(z.object({ from: z.string(), emoji: z.string(), at: z.number() })).catch([]),
  createdAt: z.number(),
});

/** The ad a customer came from (tickets and contacts); unknown or malformed fields degrade to absent. */
export const referralAnswer: z.ZodType<ReferralAnswer | null> = z
  .object({
    sourceUrl: z.string().optional().catch(undefined),
    sourceType: z.string().optional().catch(undefined),
    sourceId: z.string().optional().catch(undefined),
    headline: z.string().optional().catch(undefined),
    body: z.string().optional().catch(undefined),
    mediaType: z.string().optional().catch(undefined),
    imageUrl: z.string().optional().catch(undefined),
    videoUrl: z.string().optional().catch(undefined),
    thumbnailUrl: z.string().optional().catch(undefined),
    ctwaClid: z.string().optional().catch(undefined),
  })
  .nullable()
  .catch(null);

/** One ticket (REST and the hub's `ticket.updated`). */
export const ticketAnswer: z.ZodType<TicketAnswer> = z.object({
  id: z.string(),
  status: ticketStatus,
  contact: z.object({ id: z.string(), name: z.string(), phone: z.string().nullable(), email: z.string().nullable(), image: z.string().nullable() }),
  connection: z.object({ id: z.string(), name: z.string(), channel: z.string() }),
  assignedMemberId: z.string().nullable(),
  assignedMemberName: z.string().nullable(),
  servedByMemberId: z.string().nullable(),
  isGroup: z.boolean(),
  unreadCount: z.number(),
  lastMessageAt: z.number(),
  lastMessagePreview: z.string(),
  // An event stored before tickets had versions (the hub's catch-up) reads as the oldest.
  version: z.number().catch(0),
  createdAt: z.number(),
  closedAt: z.number().nullable(),
  referral: referralAnswer,
  outsideHoursAt: z.number().nullable().catch(null),
});

/** GET /api/tickets → one page of the chat list, newest activity first. */
export type TicketPage = { results: TicketAnswer[]; cursor: string | null; total: number };
/** GET /api/tickets → TicketPage. */
export const ticketPage: z.ZodType<TicketPage> = z.object({ results: z.array(ticketAnswer), cursor: z.string().nullable(), total: z.number() });

/** GET /api/tickets/{id}/messages → one page, oldest first; `cursor` leads to older messages. */
export type MessagePage = { results: MessageAnswer[]; cursor: string | null };
/** GET /api/tickets/{id}/messages → MessagePage. */
export const messagePage: z.ZodType<MessagePage> = z.object({ results: z.array(messageAnswer), cursor: z.string().nullable() });

/** GET /api/companies/members/active, GET /api/companies/members → MemberAnswer[]. */
export const memberList: z.ZodType<MemberAnswer[]> = z.array(
  z.object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    status: z.enum(["online", "offline"]),
    isOwner: z.boolean(),
    roles: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
);

/** A frame of the ticket room socket (GET /api/ws/tickets/{id}). */
export const roomEvent: z.ZodType<RoomEvent> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message.created"), message: messageAnswer }),
  z.object({ type: z.literal("message.updated"), message: messageAnswer }),
  z.object({
    type: z.literal("typing"),
    who: z.enum(["contact", "member"]),
    memberId: z.string().optional(),
    name: z.string().optional(),
    state: z.enum(["typing", "recording", "paused"]),
  }),
]);

// ---- Contacts, custom fields, tags, jobs (issue 4) --------------------------------------------

/** One tag (GET /api/tags entries, POST / PUT /api/tags). */
export const tagAnswer: z.ZodType<TagAnswer> = z.object({ id: z.string(), name: z.string(), color: z.string(), createdAt: z.number() });

/** GET /api/tags → one page of tags by name. */
export const tagPage: z.ZodType<{ results: TagAnswer[]; cursor: string | null; total: number }> = z.object({
  results: z.array(tagAnswer),
  cursor: z.string().nullable(),
  total: z.number(),
});

/** One custom field (GET /api/custom-fields entries, POST / PUT /api/custom-fields). */
export const customFieldAnswer: z.ZodType<CustomFieldAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  kind: z.enum(CUSTOM_FIELD_KINDS),
  formula: z.string().nullable(),
  value: z.string().nullable(),
  readOnly: z.boolean(),
  createdAt: z.number().nullable(),
});

/** GET /api/custom-fields → the built-ins first, then the company's fields by name. */
export const customFieldList: z.ZodType<{ results: CustomFieldAnswer[]; total: number }> = z.object({
  results: z.array(customFieldAnswer),
  total: z.number(),
});

const contactTag = z.object({ id: z.string(), name: z.string(), color: z.string() });

const contactShape = {
  id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  document: z.string().nullable(),
  image: z.string().nullable(),
  tags: z.array(contactTag),
  fields: z.record(z.string(), z.string()),
  crmColumnId: z.string().nullable(),
  lastMessageAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
};

/** One contact (list entries, POST / PUT /api/contacts). */
export const contactAnswer: z.ZodType<ContactAnswer> = z.object(contactShape);

/** GET /api/contacts → ContactPage. */
export const contactPage: z.ZodType<ContactPage> = z.object({
  results: z.array(contactAnswer),
  cursor: z.string().nullable(),
  total: z.number(),
  totalCapped: z.boolean(),
});

/** GET /api/contacts/{id} → the contact, every field's value and its latest tickets. */
export const contactDetailAnswer: z.ZodType<ContactDetailAnswer> = z.object({
  ...contactShape,
  values: z.array(
    z.object({
      id: z.string(),
      key: z.string(),
      name: z.string(),
      type: z.enum(CUSTOM_FIELD_TYPES),
      kind: z.enum(CUSTOM_FIELD_KINDS),
      value: z.string().nullable(),
      readOnly: z.boolean(),
      error: z.string().optional(),
    }),
  ),
  tickets: z.array(
    z.object({
      id: z.string(),
      status: ticketStatus,
      connection: z.object({ id: z.string(), name: z.string(), channel: z.string() }).nullable(),
      lastMessageAt: z.number(),
      lastMessagePreview: z.string(),
      createdAt: z.number(),
      closedAt: z.number().nullable(),
    }),
  ),
  referral: referralAnswer,
});

/** POST /api/contacts/bulk → {affected, done}. */
export const contactBulkAnswer: z.ZodType<ContactBulkAnswer> = z.object({ affected: z.number(), done: z.boolean() });

const jobProgressShape = {
  id: z.string(),
  type: z.enum(["import", "export", "cleanup"]),
  status: z.enum(["uploaded", "queued", "running", "done", "failed"]),
  processed: z.number(),
  total: z.number(),
  errors: z.number(),
  errorMessage: z.string().nullable(),
  errorCode: z.string().nullable().default(null),
};

/** A job's progress as the hub's `job.updated` event carries it. */
export const jobProgress: z.ZodType<JobProgress> = z.object(jobProgressShape);

/** GET /api/jobs/{id}, POST /api/jobs/{id}/start, POST /api/contacts/export → JobAnswer. */
export const jobAnswer: z.ZodType<JobAnswer> = z.object({
  ...jobProgressShape,
  resultUrl: z.string().nullable(),
  reportUrl: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const importTarget: z.ZodType<ImportTarget> = z.custom<ImportTarget>(isImportTarget);

/** POST /api/contacts/import → the job, the header row, the first rows and the suggested mapping. */
export const importUploadAnswer: z.ZodType<ImportUploadAnswer> = z.object({
  jobId: z.string(),
  headers: z.array(z.string()),
  preview: z.array(z.array(z.string())),
  suggestedMapping: z.record(z.string(), importTarget),
  sheets: z.array(z.object({ index: z.number(), name: z.string(), kind: z.enum(["worksheet", "chartsheet", "other"]), hidden: z.boolean() })),
  sheet: z.number(),
  headerRow: z.number(),
  previewRows: z.array(z.number()),
  headerCandidates: z.array(z.object({ row: z.number(), text: z.string() })),
});

// ---- CRM board and quick messages (issue 4; worker/routes/crm.ts, quick-messages.ts) ----------

const tagChip = z.object({ id: z.string(), name: z.string(), color: z.string() });

/** A CRM column (GET/POST/PUT /api/crm/columns, the hub's `crm.columns`). */
export const crmColumnAnswer: z.ZodType<CrmColumnAnswer> = z.object({ id: z.string(), name: z.string(), color: z.string(), position: z.number() });

/** GET /api/crm/columns, PUT /api/crm/columns/order → the columns in board order. */
export const crmColumnPage: z.ZodType<Page<CrmColumnAnswer>> = z.object({ results: z.array(crmColumnAnswer), cursor: z.string().nullable(), total: z.number() });

/** A contact's card on the board (also the hub's `crm.card`). */
export const crmCardAnswer: z.ZodType<CrmCardAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  image: z.string().nullable(),
  tags: z.array(tagChip),
  columnId: z.string(),
  position: z.number(),
});

/** GET /api/crm/board → every column with its first page of cards. */
export const crmBoardAnswer: z.ZodType<{ columns: CrmBoardColumn[] }> = z.object({
  columns: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      color: z.string(),
      position: z.number(),
      contacts: z.array(crmCardAnswer),
      cursor: z.string().nullable(),
      total: z.number(),
    }),
  ),
});

/** GET /api/crm/columns/{id}/contacts → the next page of a column's cards. */
export const crmCardPage: z.ZodType<Page<CrmCardAnswer>> = z.object({ results: z.array(crmCardAnswer), cursor: z.string().nullable(), total: z.number() });

/** PUT /api/crm/contacts/{contactId} → the card where it is now (null: off the board). */
export const crmMoveAnswer: z.ZodType<{ contactId: string; card: CrmCardAnswer | null }> = z.object({ contactId: z.string(), card: crmCardAnswer.nullable() });

const quickMessageMedia = z.object({ url: z.string(), mime: z.string(), name: z.string().nullable(), size: z.number().nullable() }).nullable();

/** A quick message (GET/POST/PUT /api/quick-messages). */
export const quickMessageAnswer: z.ZodType<QuickMessageAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  text: z.string(),
  media: quickMessageMedia,
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** GET /api/quick-messages?search=&cursor= → one page by name. */
export const quickMessagePage: z.ZodType<Page<QuickMessageAnswer>> = z.object({ results: z.array(quickMessageAnswer), cursor: z.string().nullable(), total: z.number() });

/** POST /api/quick-messages/{id}/render → the text with the contact's values filled in. */
export const renderedQuickMessage: z.ZodType<RenderedQuickMessage> = z.object({ text: z.string(), media: quickMessageMedia });

/** The part of a custom field the template variables helper reads (GET /api/custom-fields). */
export type TemplateField = { key: string; name: string; kind: string };
/** GET /api/custom-fields → the fields' keys and names (built-ins first); other keys are ignored. */
export const templateFieldPage: z.ZodType<{ results: TemplateField[] }> = z.object({
  results: z.array(z.object({ key: z.string(), name: z.string(), kind: z.string() })),
});

/** The part of a contact the CRM's contact picker reads (GET /api/contacts?search=). */
export type ContactOption = {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  image: string | null;
  tags: { id: string; name: string; color: string }[];
  crmColumnId: string | null;
};
/** GET /api/contacts?search= → contacts to pick from; other keys are ignored. */
export const contactOptionPage: z.ZodType<{ results: ContactOption[]; total: number }> = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      phone: z.string().nullable(),
      email: z.string().nullable(),
      image: z.string().nullable(),
      tags: z.array(tagChip),
      crmColumnId: z.string().nullable(),
    }),
  ),
  total: z.number(),
});

// ---------------------------------------------------------------------------------------------
// Flow builder (issue 5; .tmp/flows-api.md, schema/flow-api.ts): folders, builders, sharing, stats,
// keywords, default flows per connection, runs. The parsers of drafts (schema/flows `parseFlow`) are
// in ./flow-answers.ts, so pages without the flow editor do not load the flow schema (issue 9).
// ---------------------------------------------------------------------------------------------

/** GET/POST/PUT /api/folders, GET /api/folders/{id}/path entries. */
export const folderAnswer: z.ZodType<FolderAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
/** GET /api/folders, GET /api/folders/{id}/path → FolderAnswer[]. */
export const folderList: z.ZodType<FolderAnswer[]> = z.array(folderAnswer);

/** Fields of a listed builder, shared with the detail parsers of ./flow-answers.ts. */
export const flowSummaryShape = {
  id: z.string(),
  name: z.string(),
  folderId: z.string().nullable(),
  type: z.enum(FLOW_TYPES),
  shareActive: z.boolean(),
  cloneActive: z.boolean(),
  restrictCompanies: z.boolean(),
  allowedCompanyIds: z.array(z.string()),
  shareUrl: z.string(),
  publishedVersion: z.number().nullable(),
  publishedAt: z.number().nullable(),
  updatedAt: z.number(),
};
/** A builder as listed (GET /api/flows). */
export const flowSummary: z.ZodType<FlowSummary> = z.object(flowSummaryShape);
/** GET /api/flows → FlowSummary[]. */
export const flowSummaryList: z.ZodType<FlowSummary[]> = z.array(flowSummary);

/** One problem of validateFlow as the API reports it (the editor recomputes its own with the same code). */
export type FlowProblemAnswer = { severity: "error" | "incomplete" | "warning"; code: string; message: string; nodeId?: string; edgeId?: string; path?: string; detail?: string };
export const flowProblemAnswer: z.ZodType<FlowProblemAnswer> = z.object({
  severity: z.enum(["error", "incomplete", "warning"]),
  code: z.string(),
  message: z.string(),
  nodeId: z.string().optional(),
  edgeId: z.string().optional(),
  path: z.string().optional(),
  detail: z.string().optional(),
});

/** A builder with its parsed draft and the server's problems (schema/flow-api.ts FlowAnswer). */
export type FlowDetail = FlowSummary & { draft: FlowDocument; problems: FlowProblemAnswer[]; triggers?: FlowTriggersAnswer };
/** GET /api/flows/{id} `triggers`: what starts the flow (keywords, connections' default-flow slots). */
export const flowTriggersAnswer: z.ZodType<FlowTriggersAnswer, unknown> = z.object({
  keywords: z.array(z.object({ id: z.string(), name: z.string(), turnOn: z.boolean(), words: z.array(z.string()) })),
  connections: z.array(z.object({ id: z.string(), name: z.string(), slots: z.array(z.enum(["default", "media", "campaign", "story"])) })),
});
/* flowAnswer (GET/POST/PUT /api/flows/{id}, …) is in ./flow-answers.ts: it parses drafts with schema/flows. */

/** POST /api/flows/{id}/publish → the frozen version. */
export const publishAnswer: z.ZodType<PublishAnswer> = z.object({ version: z.number(), publishedAt: z.number() });

/** POST /api/flows/{id}/media → the stored file (`url` is an `r2:<key>` reference to keep in the block). */
export const flowMediaAnswer: z.ZodType<FlowMediaAnswer> = z.object({ url: z.string().min(1), mime: z.string(), name: z.string(), size: z.number() });

/** GET /api/flows/{id}/media-url → a signed preview address. */
export const flowMediaUrlAnswer: z.ZodType<{ url: string }> = z.object({ url: z.string().min(1) });

/** GET /api/flows/{id}/stats → per block id: runs that reached it, runs that stopped there. */
export const flowStatsAnswer: z.ZodType<FlowStatsAnswer> = z.record(z.string(), z.object({ reached: z.number(), stopped: z.number() }));

/** The refusal reasons of sharing and cloning. */
export const SHARE_REFUSALS = ["share_inactive", "clone_inactive", "company_not_allowed"] as const satisfies readonly ShareRefusal[];

/** GET /api/share-flow/{id} → the shared builder, its company, its parsed draft, and whether the caller may clone it. */
export type SharedFlowDetail = Omit<SharedFlowAnswer, "draft"> & { draft: FlowDocument };
/* sharedFlowAnswer (parses a SharedFlowDetail) is in ./flow-answers.ts: it parses drafts with schema/flows. */

/** A keyword trigger (GET/POST/PUT /api/keywords). */
export const keywordAnswer: z.ZodType<KeywordAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  turnOn: z.boolean(),
  rules: z.array(z.object({ type: z.enum(KEYWORD_RULE_TYPES), words: z.array(z.string()) })),
  flowId: z.string(),
  createdMessages: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
/** GET /api/keywords → KeywordAnswer[]. */
export const keywordList: z.ZodType<KeywordAnswer[]> = z.array(keywordAnswer);

/** GET/PUT /api/companies/default-flows → DefaultFlowsAnswer. */
export const defaultFlowsAnswer: z.ZodType<DefaultFlowsAnswer> = z.object({
  channelId: z.string(),
  defaultFlowId: z.string().nullable(),
  mediaFlowId: z.string().nullable(),
  campaignFlowId: z.string().nullable(),
  storyFlowId: z.string().nullable(),
});

/** POST /api/tickets/{id}/start-flow → the new run. */
export const startFlowAnswer: z.ZodType<{ runId: string }> = z.object({ runId: z.string() });

/** A contact's flow run (GET /api/contacts/{id}/runs). */
export const flowRunAnswer: z.ZodType<FlowRunAnswer> = z.object({
  id: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  version: z.number(),
  nodeId: z.string().nullable(),
  nodeType: z.string().nullable(),
  status: z.enum(["running", "waiting", "done", "failed"]),
  waitingFor: z.enum(["reply", "timer", "http"]).nullable(),
  since: z.number().nullable(),
  error: z.object({ code: z.string(), message: z.string(), nodeId: z.string().nullable() }).nullable(),
  warnings: z.array(z.object({ at: z.number(), nodeId: z.string().nullable(), code: z.string(), message: z.string() })),
});
/** GET /api/contacts/{id}/runs → FlowRunAnswer[] newest first. */
export const flowRunList: z.ZodType<FlowRunAnswer[]> = z.array(flowRunAnswer);

// ---- Rejected provider events of a connection (issue 8 §7) ------------------------------------

/** GET /api/connections/{id}/rejected-events → one page, newest first, and the connection's count. */
export const rejectedEventPage: z.ZodType<RejectedEventPage> = z.object({
  results: z.array(z.object({ id: z.string(), reason: z.string(), detail: z.string(), receivedAt: z.number(), size: z.number() })),
  cursor: z.string().nullable(),
  total: z.number(),
});
