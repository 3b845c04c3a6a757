/**
 * Shapes the flow builder's API answers (issue 5; .tmp/flows-api.md), shared by worker and web.
 * Times are ms UTC.
 */
import type { FlowType } from "./flow-builders";
import type { FlowDocument, FlowProblem } from "./flows";
import type { KeywordRule } from "./keywords";

export type FolderAnswer = { id: string; name: string; parentId: string | null; createdAt: number; updatedAt: number };

/** A builder in a list. `shareUrl` is the app path of the share page (`/share-flow/<id>`). */
export type FlowSummary = {
  id: string;
  name: string;
  folderId: string | null;
  type: FlowType;
  shareActive: boolean;
  cloneActive: boolean;
  restrictCompanies: boolean;
  allowedCompanyIds: string[];
  shareUrl: string;
  publishedVersion: number | null;
  publishedAt: number | null;
  updatedAt: number;
};

/** A builder with its draft and the draft's problems (drafts may be incomplete). */
export type FlowAnswer = FlowSummary & { draft: FlowDocument; problems: FlowProblem[] };

/**
 * GET /api/flows/{id} also answers `triggers`: what starts the flow — keyword triggers pointing at it
 * (with their words, at most 20) and connections whose default-flow slots name it. A member can
 * always start any flow by hand from a ticket, so that is not listed.
 */
export type FlowTriggersAnswer = {
  keywords: { id: string; name: string; turnOn: boolean; words: string[] }[];
  connections: { id: string; name: string; slots: ("default" | "media" | "campaign" | "story")[] }[];
};

/** POST /api/flows/{id}/publish. */
export type PublishAnswer = { version: number; publishedAt: number };

/** POST /api/flows/{id}/media: `url` is `r2:<key>` to store in a block's media. */
export type FlowMediaAnswer = { url: string; mime: string; name: string; size: number };

/** GET /api/flows/{id}/stats: per block id. */
export type FlowStatsAnswer = Record<string, { reached: number; stopped: number }>;

/** Why a shared flow may not be cloned. */
export type ShareRefusal = "share_inactive" | "clone_inactive" | "company_not_allowed";

/** GET /api/share-flow/{id}. */
export type SharedFlowAnswer = { flow: FlowSummary & { companyName: string }; draft: FlowDocument; canClone: boolean; reason?: ShareRefusal };

export type KeywordAnswer = { id: string; name: string; turnOn: boolean; rules: KeywordRule[]; flowId: string; createdMessages: number; createdAt: number; updatedAt: number };

export type DefaultFlowsAnswer = { channelId: string; defaultFlowId: string | null; mediaFlowId: string | null; campaignFlowId: string | null; storyFlowId: string | null };

/** One run of a contact. `waitingFor`: what a waiting run waits for; `since`: on this block since (ms). */
export type FlowRunAnswer = {
  id: string;
  flowId: string;
  flowName: string;
  version: number;
  nodeId: string | null;
  nodeType: string | null;
  status: "running" | "waiting" | "done" | "failed";
  waitingFor: "reply" | "timer" | "http" | null;
  since: number | null;
  error: { code: string; message: string; nodeId: string | null } | null;
  /** What the run skipped, oldest first: engine warnings and effects given up after their retries (issue 17). */
  warnings: RunWarning[];
};

/**
 * A warning kept on a run: an engine warning (`code` of FlowWarningCode, e.g. a formula with a
 * missing value) or `effect_failed` (a step that kept failing and was skipped); `at` ms UTC.
 */
export type RunWarning = { at: number; nodeId: string | null; code: string; message: string };
