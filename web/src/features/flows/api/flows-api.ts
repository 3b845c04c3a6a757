/**
 * The flow builder's calls (worker/routes/flows.ts; .tmp/flows-api.md): folders, builders, drafts,
 * publishing, media, stats and sharing. Answers are parsed at the edge (lib/answers.ts).
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import {
  flowMediaAnswer,
  flowMediaUrlAnswer,
  flowStatsAnswer,
  flowSummaryList,
  folderAnswer,
  folderList,
  publishAnswer,
  type FlowDetail,
  type SharedFlowDetail,
} from "@/lib/answers";
import { customFieldList, memberList } from "@/lib/answers";
import { flowAnswer, sharedFlowAnswer } from "@/lib/flow-answers";
import type { FlowMediaAnswer, FolderAnswer, PublishAnswer } from "../../../../../schema/flow-api";
import type { FlowType } from "../../../../../schema/flow-builders";
import type { FlowDocumentInput } from "../../../../../schema/flows";

const enc = encodeURIComponent;

/** Query keys of the flow builder. */
export const flowKeys = {
  all: ["flows"] as const,
  folders: (parentId: string | null) => [...flowKeys.all, "folders", parentId ?? "root"] as const,
  allFolders: () => [...flowKeys.all, "folders", "all"] as const,
  path: (folderId: string) => [...flowKeys.all, "path", folderId] as const,
  list: (folderId: string | null) => [...flowKeys.all, "list", folderId ?? "root"] as const,
  everyFlow: () => [...flowKeys.all, "list", "all"] as const,
  detail: (id: string) => [...flowKeys.all, "detail", id] as const,
  stats: (id: string) => [...flowKeys.all, "stats", id] as const,
  shared: (id: string) => [...flowKeys.all, "shared", id] as const,
  fields: () => [...flowKeys.all, "fields"] as const,
  members: () => [...flowKeys.all, "members"] as const,
  cycles: () => [...flowKeys.all, "shipping-cycles"] as const,
};

/** GET /api/folders?parentId= → the folders of one level (null: the root). */
export const foldersQuery = (parentId: string | null) =>
  queryOptions({
    queryKey: flowKeys.folders(parentId),
    queryFn: ({ signal }) => api.call("GET", "/folders", folderList, { query: { parentId: parentId ?? "root" }, signal }),
  });

/** GET /api/folders → every folder of the company (the move dialog). */
export const allFoldersQuery = () =>
  queryOptions({ queryKey: flowKeys.allFolders(), queryFn: ({ signal }) => api.call("GET", "/folders", folderList, { signal }) });

/** GET /api/folders/{id}/path → the breadcrumbs, root first. */
export const folderPathQuery = (folderId: string) =>
  queryOptions({ queryKey: flowKeys.path(folderId), queryFn: ({ signal }) => api.call("GET", `/folders/${enc(folderId)}/path`, folderList, { signal }) });

/** GET /api/flows?folderId= → the builders of one level (null: the root). */
export const flowsQuery = (folderId: string | null) =>
  queryOptions({
    queryKey: flowKeys.list(folderId),
    queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { query: { folderId: folderId ?? "root" }, signal }),
  });

/** GET /api/flows → every builder of the company (pickers). */
export const everyFlowQuery = () =>
  queryOptions({ queryKey: flowKeys.everyFlow(), queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }), staleTime: 30_000 });

/** GET /api/flows/{id} → the builder with its draft. */
export const flowQuery = (id: string) =>
  queryOptions({ queryKey: flowKeys.detail(id), queryFn: ({ signal }) => api.call("GET", `/flows/${enc(id)}`, flowAnswer, { signal }), gcTime: 0, refetchOnWindowFocus: false });

/** GET /api/flows/{id}/stats → runs reached / stopped per block. */
export const flowStatsQuery = (id: string) =>
  queryOptions({ queryKey: flowKeys.stats(id), queryFn: ({ signal }) => api.call("GET", `/flows/${enc(id)}/stats`, flowStatsAnswer, { signal }), staleTime: 30_000 });

/** GET /api/share-flow/{id} → the shared builder (any company's). */
export const sharedFlowQuery = (id: string) =>
  queryOptions({ queryKey: flowKeys.shared(id), queryFn: ({ signal }) => api.call("GET", `/share-flow/${enc(id)}`, sharedFlowAnswer, { signal }), retry: false });

/** GET /api/custom-fields → the fields blocks save into and test (built-ins first). */
export const flowFieldsQuery = () =>
  queryOptions({ queryKey: flowKeys.fields(), queryFn: async ({ signal }) => (await api.call("GET", "/custom-fields", customFieldList, { signal })).results, staleTime: 60_000 });

/** GET /api/companies/members/active → members a notification block can alert (the online ones, readable by every member). */
export const flowMembersQuery = () =>
  queryOptions({ queryKey: flowKeys.members(), queryFn: ({ signal }) => api.call("GET", "/companies/members/active", memberList, { signal }), staleTime: 60_000, retry: false });

/** One shipping cycle as the action block's "add to shipping cycle" picks it. */
const cycleChoices = z.array(z.object({ id: z.string(), name: z.string(), active: z.boolean() }));

/** GET /api/shipping-cycles → the cycles an action block can add the contact to (issue 10). */
export const flowCyclesQuery = () =>
  queryOptions({ queryKey: flowKeys.cycles(), queryFn: ({ signal }) => api.call("GET", "/shipping-cycles", cycleChoices, { signal }), staleTime: 60_000, retry: false });

/** POST /api/folders → the new folder. */
export function createFolder(name: string, parentId: string | null): Promise<FolderAnswer> {
  return api.call("POST", "/folders", folderAnswer, { body: { name, parentId } });
}

/** PUT /api/folders/{id} → the renamed or moved folder. */
export function updateFolder(id: string, input: { name?: string; parentId?: string | null }): Promise<FolderAnswer> {
  return api.call("PUT", `/folders/${enc(id)}`, folderAnswer, { body: input });
}

/** DELETE /api/folders/{id} → 204; 409 `conflict` while it is not empty. */
export function deleteFolder(id: string): Promise<void> {
  return api.send("DELETE", `/folders/${enc(id)}`);
}

/** POST /api/flows → the new builder (its draft: one start block). */
export function createFlow(input: { name: string; type: FlowType; folderId: string | null }): Promise<FlowDetail> {
  return api.call("POST", "/flows", flowAnswer, { body: input });
}

/** What PUT /api/flows/{id} changes. */
export type FlowUpdate = {
  name?: string;
  type?: FlowType;
  draft?: FlowDocumentInput;
  shareActive?: boolean;
  cloneActive?: boolean;
  restrictCompanies?: boolean;
  allowedCompanyIds?: string[];
};

/** PUT /api/flows/{id} → the builder (400 naming the block when a draft cannot be stored). */
export function updateFlow(id: string, input: FlowUpdate, signal?: AbortSignal): Promise<FlowDetail> {
  return api.call("PUT", `/flows/${enc(id)}`, flowAnswer, { body: input, signal });
}

/** POST /api/flows/{id}/publish → the version frozen; 400 with the problems when it is not publishable. */
export function publishFlow(id: string): Promise<PublishAnswer> {
  return api.call("POST", `/flows/${enc(id)}/publish`, publishAnswer);
}

/** POST /api/flows/{id}/duplicate {name} → the copy, named `name` (see lib/copy-name.ts). */
export function duplicateFlow(id: string, name: string): Promise<FlowDetail> {
  return api.call("POST", `/flows/${enc(id)}/duplicate`, flowAnswer, { body: { name } });
}

/** POST /api/flows/{id}/move {folderId} (null: the root). */
export function moveFlow(id: string, folderId: string | null): Promise<FlowDetail> {
  return api.call("POST", `/flows/${enc(id)}/move`, flowAnswer, { body: { folderId } });
}

/** DELETE /api/flows/{id} → 204. */
export function deleteFlow(id: string): Promise<void> {
  return api.send("DELETE", `/flows/${enc(id)}`);
}

/** POST /api/flows/{id}/media (multipart `file`) → `{url: "r2:<key>", mime, name, size}`. */
export function uploadFlowMedia(id: string, file: File): Promise<FlowMediaAnswer> {
  const form = new FormData();
  form.set("file", file, file.name);
  return api.call("POST", `/flows/${enc(id)}/media`, flowMediaAnswer, { form });
}

/** GET /api/flows/{id}/media-url?ref= → a signed address to preview an `r2:` file. */
export async function flowMediaUrl(id: string, ref: string): Promise<string> {
  return (await api.call("GET", `/flows/${enc(id)}/media-url`, flowMediaUrlAnswer, { query: { ref } })).url;
}

/** POST /api/share-flow/{id}/clone → the copy in the caller's company; 403 `fields.reason` when refused. */
export function cloneSharedFlow(id: string): Promise<FlowDetail> {
  return api.call("POST", `/share-flow/${enc(id)}/clone`, flowAnswer);
}

/** The type the shared answer narrows to, for screens. */
export type { SharedFlowDetail };
