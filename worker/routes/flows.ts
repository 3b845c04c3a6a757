/**
 * The flow builder's folders and builders (issue 5 "Folders and builders"; contract
 * .tmp/flows-api.md). Permission `flow`; the company comes from the session and every query filters
 * on it (another company's id answers 404); bad input answers 400 naming the field.
 *
 * Folders (/api/folders):
 * - GET /?parentId=<id>|root → FolderAnswer[] by name (absent parentId: every folder).
 * - POST / {name, parentId?} → 201 FolderAnswer. 400 `parentId: invalid_id` for a folder not of the company.
 * - GET /{id} → FolderAnswer; GET /{id}/path → FolderAnswer[] (breadcrumbs, root first).
 * - PUT /{id} {name?, parentId?} → FolderAnswer; 400 `parentId: invalid_parent` when the folder would
 *   sit inside itself.
 * - DELETE /{id} → 204; 409 `conflict` while it holds folders or builders.
 * Folder names are unique within their parent, ignoring case (409 `name_in_use` naming `name`).
 *
 * Builders (/api/flows):
 * - GET /?folderId=<id>|root&search= → FlowSummary[] by name.
 * - POST / {name, folderId?, type} → 201 FlowAnswer (draft: one start block).
 * - GET /{id} → FlowAnswer; PUT /{id} {name?, folderId?, type?, draft?, shareActive?, cloneActive?,
 *   restrictCompanies?, allowedCompanyIds?} → FlowAnswer. A draft that is not a FlowDocument answers
 *   400 with `fields` naming the block (`draft.nodes.<nodeId>`), the edge (`draft.edges.<edgeId>`)
 *   or `draft`; incomplete drafts are stored and their problems answered in `problems`.
 * - POST /{id}/publish → {version, publishedAt}: freezes the draft as the next version; 400
 *   `validation_failed` with `fields` and `problems` when the draft is not publishable.
 * - POST /{id}/duplicate {name?} → 201 FlowAnswer named `name` (the app sends it in the user's language), else "<name> (copy)"; POST /{id}/move {folderId|null} → FlowAnswer.
 * - DELETE /{id} → 204: its keyword triggers are deleted and connections' default slots cleared;
 *   published versions stay so runs in progress finish on them.
 * - POST /{id}/media (multipart `file`, ≤ 100 MB) → {url: "r2:<key>", mime, name, size};
 *   GET /{id}/media-url?ref=r2:<key> → {url} (signed, 6 h; only the company's own media).
 * - GET /{id}/stats → {[nodeId]: {reached, stopped}}.
 *
 * Sharing (/api/share-flow, permission `flow` in the caller's own company):
 * - GET /{id} → SharedFlowAnswer for a builder of any company while its sharing is on (403
 *   `forbidden` with `fields.reason: share_inactive` otherwise); `canClone` and `reason` say whether
 *   the caller's company may clone it. Secrets (pixel access tokens, integration header values) are
 *   blanked.
 * - POST /{id}/clone → 201 FlowAnswer in the caller's company (root folder, not published), with
 *   the custom fields and tags the flow uses created by name and its media copied; 403 with
 *   `fields.reason` share_inactive | clone_inactive | company_not_allowed.
 */
import { Hono } from "hono";
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { companies, connectionFlows, connections, customFields, flowFolders, flowStats, flowVersions, flows, keywords, type FlowFolderRow, type FlowRow } from "../../schema";
import type { FlowMediaAnswer, FlowStatsAnswer, FlowTriggersAnswer, FolderAnswer, PublishAnswer, SharedFlowAnswer, ShareRefusal } from "../../schema/flow-api";
import { emptyFlow, isPublishable, parseFlow, type FlowDocument, type FlowProblem } from "../../schema/flows";
import { idSchema } from "../../schema/validation/common";
import { flowCreateInput, flowDuplicateInput, flowListQuery, flowMoveInput, flowUpdateInput, folderInput, folderListQuery, folderUpdate, mediaRefQuery } from "../../schema/validation/flows";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { ensureTags, likePattern } from "../lib/contacts";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound, validationError } from "../lib/errors";
import { draftOf, findFlow, presentFlow, presentFlowSummary } from "../lib/flows";
import { newId } from "../lib/ids";
import { MAX_MEDIA_BYTES, signedMediaUrl, storeMedia } from "../lib/media";
import { assertNameFree, withNameIndex } from "../lib/unique-name";
import { zv } from "../lib/validate";
import { readForm } from "../lib/multipart";

const idParam = z.object({ id: idSchema });

const invalid = (field: string, reason: string, message = `Invalid input: ${field}.`) => new AppError("validation_failed", message, { [field]: reason });

function presentFolder(row: FlowFolderRow): FolderAnswer {
  return { id: row.id, name: row.name, parentId: row.parentId, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

async function findFolder(db: Db, companyId: string, id: string): Promise<FlowFolderRow> {
  const row = await db.query.flowFolders.findFirst({ where: and(eq(flowFolders.id, id), eq(flowFolders.companyId, companyId)) });
  if (!row) throw notFound("Folder");
  return row;
}

/**
 * What starts a flow (issue 9: the Start block shows it): the company's keyword triggers that point
 * at it (name, on/off, the words of their rules) and the connections whose default-flow slots
 * (`default`, `media`, `campaign`, `story`; spec §3 "Default flows") name it. Both company-scoped.
 */
async function flowTriggers(db: Db, companyId: string, flowId: string): Promise<FlowTriggersAnswer> {
  const [keywordRows, slotRows] = await Promise.all([
    db
      .select({ id: keywords.id, name: keywords.name, turnOn: keywords.turnOn, rules: keywords.rules })
      .from(keywords)
      .where(and(eq(keywords.companyId, companyId), eq(keywords.flowId, flowId)))
      .orderBy(asc(keywords.name)),
    db
      .select({ id: connections.id, name: connections.name, defaultFlowId: connectionFlows.defaultFlowId, mediaFlowId: connectionFlows.mediaFlowId, campaignFlowId: connectionFlows.campaignFlowId, storyFlowId: connectionFlows.storyFlowId })
      .from(connectionFlows)
      .innerJoin(connections, and(eq(connections.id, connectionFlows.connectionId), eq(connections.companyId, companyId)))
      .where(
        and(
          eq(connectionFlows.companyId, companyId),
          or(eq(connectionFlows.defaultFlowId, flowId), eq(connectionFlows.mediaFlowId, flowId), eq(connectionFlows.campaignFlowId, flowId), eq(connectionFlows.storyFlowId, flowId)),
        ),
      )
      .orderBy(asc(connections.name)),
  ]);
  return {
    keywords: keywordRows.map((row) => ({ id: row.id, name: row.name, turnOn: row.turnOn, words: row.rules.flatMap((rule) => rule.words).slice(0, 20) })),
    connections: slotRows.map((row) => ({
      id: row.id,
      name: row.name,
      slots: (
        [
          ["default", row.defaultFlowId],
          ["media", row.mediaFlowId],
          ["campaign", row.campaignFlowId],
          ["story", row.storyFlowId],
        ] as const
      )
        .filter(([, id]) => id === flowId)
        .map(([slot]) => slot),
    })),
  };
}
/** A folder id given in a body: must be a folder of the company (400 naming `field` otherwise). */
async function checkFolder(db: Db, companyId: string, id: string | null, field: string): Promise<void> {
  if (id === null) return;
  const row = await db.query.flowFolders.findFirst({ where: and(eq(flowFolders.id, id), eq(flowFolders.companyId, companyId)), columns: { id: true } });
  if (!row) throw invalid(field, "invalid_id", "That folder does not exist.");
}

/** Folders sitting in `parentId` (null: the root), the scope folder names are unique in. */
function sameParent(parentId: string | null) {
  return parentId === null ? isNull(flowFolders.parentId) : eq(flowFolders.parentId, parentId);
}

/** The folder and its ancestors, root first (stops on a cycle or after 50 levels). */
async function pathOf(db: Db, companyId: string, folder: FlowFolderRow): Promise<FlowFolderRow[]> {
  const path = [folder];
  const seen = new Set([folder.id]);
  let parentId = folder.parentId;
  while (parentId && path.length < 50 && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = await db.query.flowFolders.findFirst({ where: and(eq(flowFolders.id, parentId), eq(flowFolders.companyId, companyId)) });
    if (!parent) break;
    path.unshift(parent);
    parentId = parent.parentId;
  }
  return path;
}

/** The 400 of a draft that cannot be stored: each problem by block, edge or `draft`. */
function draftError(problems: readonly FlowProblem[]): AppError {
  const fields: Record<string, string> = {};
  for (const problem of problems) {
    const key = problem.nodeId ? `draft.nodes.${problem.nodeId}` : problem.edgeId ? `draft.edges.${problem.edgeId}` : problem.path ? `draft.${problem.path}` : "draft";
    // A block's own data problem names the schema's reason (`too_long`); anything else its code.
    const reason = (problem.code === "invalid_block_data" || problem.code === "incomplete_block") && problem.detail && /^[a-z_]+$/.test(problem.detail) ? problem.detail : problem.code;
    if (!(key in fields)) fields[key] = reason;
  }
  const first = problems[0]?.message ?? "The flow document is invalid.";
  return new AppError("validation_failed", first, fields);
}

/** Parses a posted draft (migrating older versions); 400 naming the block when it cannot be stored. */
function parseDraft(input: unknown): { draft: FlowDocument; problems: FlowProblem[] } {
  const parsed = parseFlow(input);
  if (!parsed.ok) throw draftError(parsed.problems);
  return { draft: parsed.flow, problems: parsed.problems };
}

/** The company's media key behind an `r2:` ref, or null when it is not the company's. */
function ownMediaKey(companyId: string, ref: string): string | null {
  const key = ref.startsWith("r2:") ? ref.slice(3) : "";
  return key.startsWith(`media/${companyId}/`) ? key : null;
}


/** The state of a flow row just created, copied or imported at `at`: not shared, never published. */
function freshFlowState(at: number) {
  return {
    shareActive: false,
    cloneActive: false,
    restrictCompanies: false,
    allowedCompanyIds: [],
    publishedVersion: null,
    publishedAt: null,
    createdAt: at,
    updatedAt: at,
  } satisfies Partial<FlowRow>;
}

export const foldersRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("flow"))
  /** GET /api/folders?parentId=<id>|root → FolderAnswer[] by name. */
  .get("/", zv("query", folderListQuery), async (c) => {
    const { parentId } = c.req.valid("query");
    const companyId = c.var.company.id;
    const level = parentId === undefined ? undefined : parentId === "root" ? isNull(flowFolders.parentId) : eq(flowFolders.parentId, parentId);
    const rows = await c.var.db.select().from(flowFolders).where(and(eq(flowFolders.companyId, companyId), level)).orderBy(asc(flowFolders.name), asc(flowFolders.id));
    return c.json(rows.map(presentFolder));
  })
  /** POST /api/folders {name, parentId?} → 201 FolderAnswer. */
  .post("/", zv("json", folderInput), async (c) => {
    const input = c.req.valid("json");
    const companyId = c.var.company.id;
    await checkFolder(c.var.db, companyId, input.parentId, "parentId");
    await assertNameFree(c.var.db, flowFolders, companyId, input.name, { scope: sameParent(input.parentId) });
    const at = now();
    const row: FlowFolderRow = { id: newId(), companyId, name: input.name, parentId: input.parentId, createdAt: at, updatedAt: at };
    await withNameIndex(() => c.var.db.insert(flowFolders).values(row));
    return c.json(presentFolder(row), 201);
  })
  /** GET /api/folders/{id} → FolderAnswer. */
  .get("/:id", zv("param", idParam), async (c) => c.json(presentFolder(await findFolder(c.var.db, c.var.company.id, c.req.valid("param").id))))
  /** GET /api/folders/{id}/path → FolderAnswer[], root first, ending with the folder itself. */
  .get("/:id/path", zv("param", idParam), async (c) => {
    const folder = await findFolder(c.var.db, c.var.company.id, c.req.valid("param").id);
    return c.json((await pathOf(c.var.db, c.var.company.id, folder)).map(presentFolder));
  })
  /** PUT /api/folders/{id} {name?, parentId?} → FolderAnswer. */
  .put("/:id", zv("param", idParam), zv("json", folderUpdate), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const folder = await findFolder(db, companyId, c.req.valid("param").id);
    if (input.parentId !== undefined && input.parentId !== null) {
      const parent = await db.query.flowFolders.findFirst({ where: and(eq(flowFolders.id, input.parentId), eq(flowFolders.companyId, companyId)) });
      if (!parent) throw invalid("parentId", "invalid_id", "That folder does not exist.");
      if ((await pathOf(db, companyId, parent)).some((f) => f.id === folder.id)) throw invalid("parentId", "invalid_parent", "A folder cannot be moved inside itself.");
    }
    const set = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.parentId !== undefined ? { parentId: input.parentId } : {}), updatedAt: now() };
    await assertNameFree(db, flowFolders, companyId, set.name ?? folder.name, { exceptId: folder.id, scope: sameParent(set.parentId === undefined ? folder.parentId : set.parentId) });
    const [updated] = await withNameIndex(() => db.update(flowFolders).set(set).where(and(eq(flowFolders.id, folder.id), eq(flowFolders.companyId, companyId))).returning());
    return c.json(presentFolder(updated ?? folder));
  })
  /** DELETE /api/folders/{id} → 204; 409 while it is not empty. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const folder = await findFolder(db, companyId, c.req.valid("param").id);
    const child = await db.query.flowFolders.findFirst({ where: and(eq(flowFolders.companyId, companyId), eq(flowFolders.parentId, folder.id)), columns: { id: true } });
    const flow = await db.query.flows.findFirst({ where: and(eq(flows.companyId, companyId), eq(flows.folderId, folder.id)), columns: { id: true } });
    if (child || flow) throw new AppError("conflict", "This folder is not empty.");
    await db.delete(flowFolders).where(and(eq(flowFolders.id, folder.id), eq(flowFolders.companyId, companyId)));
    return c.body(null, 204);
  });

export const flowsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("flow"))
  /** GET /api/flows?folderId=<id>|root&search= → FlowSummary[] by name. */
  .get("/", zv("query", flowListQuery), async (c) => {
    const { folderId, search } = c.req.valid("query");
    const level = folderId === undefined ? undefined : folderId === "root" ? isNull(flows.folderId) : eq(flows.folderId, folderId);
    const rows = await c.var.db
      .select()
      .from(flows)
      .where(and(eq(flows.companyId, c.var.company.id), level, search ? sql`${flows.name} LIKE ${likePattern(search)} ESCAPE '\\'` : undefined))
      .orderBy(asc(flows.name), asc(flows.id));
    return c.json(rows.map(presentFlowSummary));
  })
  /** POST /api/flows {name, folderId?, type} → 201 FlowAnswer. */
  .post("/", zv("json", flowCreateInput), async (c) => {
    const input = c.req.valid("json");
    const companyId = c.var.company.id;
    await checkFolder(c.var.db, companyId, input.folderId, "folderId");
    const at = now();
    const row: FlowRow = {
      id: newId(),
      companyId,
      folderId: input.folderId,
      name: input.name,
      type: input.type,
      draft: JSON.stringify(emptyFlow()),
      ...freshFlowState(at),
    };
    await c.var.db.insert(flows).values(row);
    return c.json(presentFlow(row), 201);
  })
  /** GET /api/flows/{id} → FlowAnswer. */
  .get("/:id", zv("param", idParam), async (c) => {
    const flow = await findFlow(c.var.db, c.var.company.id, c.req.valid("param").id);
    return c.json({ ...presentFlow(flow), triggers: await flowTriggers(c.var.db, c.var.company.id, flow.id) });
  })
  /** PUT /api/flows/{id} → FlowAnswer (see the header for the draft's 400). */
  .put("/:id", zv("param", idParam), zv("json", flowUpdateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const flow = await findFlow(db, companyId, c.req.valid("param").id);
    if (input.folderId !== undefined) await checkFolder(db, companyId, input.folderId, "folderId");
    const draft = input.draft !== undefined ? parseDraft(input.draft).draft : undefined;
    const set: Partial<FlowRow> = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.folderId !== undefined ? { folderId: input.folderId } : {}),
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(draft ? { draft: JSON.stringify(draft) } : {}),
      ...(input.shareActive !== undefined ? { shareActive: input.shareActive } : {}),
      ...(input.cloneActive !== undefined ? { cloneActive: input.cloneActive } : {}),
      ...(input.restrictCompanies !== undefined ? { restrictCompanies: input.restrictCompanies } : {}),
      ...(input.allowedCompanyIds !== undefined ? { allowedCompanyIds: [...new Set(input.allowedCompanyIds)] } : {}),
      updatedAt: now(),
    };
    const [updated] = await db.update(flows).set(set).where(and(eq(flows.id, flow.id), eq(flows.companyId, companyId))).returning();
    return c.json(presentFlow(updated ?? flow));
  })
  /** POST /api/flows/{id}/publish → {version, publishedAt}. */
  .post("/:id/publish", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const flow = await findFlow(db, companyId, c.req.valid("param").id);
    const parsed = parseFlow(JSON.parse(flow.draft));
    if (!parsed.ok || !isPublishable(parsed.problems)) {
      const blocking = parsed.problems.filter((p) => p.severity !== "warning");
      const error = draftError(blocking);
      return c.json({ error: { code: error.code, message: `The flow cannot be published: ${error.message}`, fields: error.fields, problems: blocking } }, 400);
    }
    const version = (flow.publishedVersion ?? 0) + 1;
    const at = now();
    try {
      await db.batch([
        db.insert(flowVersions).values({ flowId: flow.id, version, companyId, document: JSON.stringify(parsed.flow), createdAt: at }),
        db.update(flows).set({ publishedVersion: version, publishedAt: at, updatedAt: at }).where(and(eq(flows.id, flow.id), eq(flows.companyId, companyId))),
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("conflict", "The flow was published at the same time; try again.");
      throw error;
    }
    const answer: PublishAnswer = { version, publishedAt: at };
    return c.json(answer);
  })
  /**
   * POST /api/flows/{id}/duplicate {name?} → 201 FlowAnswer. The app sends the copy's name in the
   * user's language (issue 9 "(copy) translated"); without a body the copy is "<name> (copy)".
   */
  .post("/:id/duplicate", zv("param", idParam), zv("json", flowDuplicateInput), async (c) => {
    const flow = await findFlow(c.var.db, c.var.company.id, c.req.valid("param").id);
    const at = now();
    const row: FlowRow = {
      ...flow,
      id: newId(),
      name: c.req.valid("json").name ?? `${flow.name} (copy)`.slice(0, 120),
      ...freshFlowState(at),
    };
    await c.var.db.insert(flows).values(row);
    return c.json(presentFlow(row), 201);
  })
  /** POST /api/flows/{id}/move {folderId: id | null} → FlowAnswer. */
  .post("/:id/move", zv("param", idParam), zv("json", flowMoveInput), async (c) => {
    const { folderId } = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const flow = await findFlow(db, companyId, c.req.valid("param").id);
    await checkFolder(db, companyId, folderId, "folderId");
    const [updated] = await db.update(flows).set({ folderId, updatedAt: now() }).where(and(eq(flows.id, flow.id), eq(flows.companyId, companyId))).returning();
    return c.json(presentFlow(updated ?? flow));
  })
  /** DELETE /api/flows/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const flow = await findFlow(db, companyId, c.req.valid("param").id);
    const at = now();
    await db.batch([
      db.delete(keywords).where(and(eq(keywords.companyId, companyId), eq(keywords.flowId, flow.id))),
      db.update(connectionFlows).set({ defaultFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), eq(connectionFlows.defaultFlowId, flow.id))),
      db.update(connectionFlows).set({ mediaFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), eq(connectionFlows.mediaFlowId, flow.id))),
      db.update(connectionFlows).set({ campaignFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), eq(connectionFlows.campaignFlowId, flow.id))),
      db.update(connectionFlows).set({ storyFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), eq(connectionFlows.storyFlowId, flow.id))),
      db.delete(flowStats).where(and(eq(flowStats.companyId, companyId), eq(flowStats.flowId, flow.id))),
      db.delete(flows).where(and(eq(flows.id, flow.id), eq(flows.companyId, companyId))),
    ]);
    return c.body(null, 204);
  })
  /** POST /api/flows/{id}/media (multipart `file`) → FlowMediaAnswer. */
  .post("/:id/media", zv("param", idParam), async (c) => {
    const companyId = c.var.company.id;
    await findFlow(c.var.db, companyId, c.req.valid("param").id);
    const form = z.object({ file: z.instanceof(File, { error: "file_required" }) }).safeParse(await readForm(c, "file"));
    if (!form.success) throw validationError(form.error);
    const file = form.data.file;
    if (file.size > MAX_MEDIA_BYTES) throw invalid("file", "too_large", "The file is larger than 100 MB.");
    if (file.size === 0) throw invalid("file", "empty_file", "The file is empty.");
    const mime = file.type || "application/octet-stream";
    const stored = await storeMedia(c.env.FILES, companyId, await file.arrayBuffer(), mime, file.name);
    const answer: FlowMediaAnswer = { url: `r2:${stored.key}`, mime: stored.mime, name: file.name, size: stored.size };
    return c.json(answer);
  })
  /** GET /api/flows/{id}/media-url?ref=r2:<key> → {url} (signed; 404 for media of another company). */
  .get("/:id/media-url", zv("param", idParam), zv("query", mediaRefQuery), async (c) => {
    const companyId = c.var.company.id;
    await findFlow(c.var.db, companyId, c.req.valid("param").id);
    const key = ownMediaKey(companyId, c.req.valid("query").ref);
    if (!key) throw notFound("File");
    return c.json({ url: await signedMediaUrl(c.env, key) });
  })
  /** GET /api/flows/{id}/stats → {[nodeId]: {reached, stopped}}. */
  .get("/:id/stats", zv("param", idParam), async (c) => {
    const companyId = c.var.company.id;
    const flow = await findFlow(c.var.db, companyId, c.req.valid("param").id);
    const rows = await c.var.db.select().from(flowStats).where(and(eq(flowStats.companyId, companyId), eq(flowStats.flowId, flow.id)));
    const answer: FlowStatsAnswer = Object.fromEntries(rows.map((r) => [r.nodeId, { reached: r.reached, stopped: r.stopped }]));
    return c.json(answer);
  });

// ---------------------------------------------------------------------------------------------
// Sharing
// ---------------------------------------------------------------------------------------------

/** Why `companyId` may not clone `flow`, or null when it may. */
function cloneRefusal(flow: FlowRow, companyId: string): ShareRefusal | null {
  if (!flow.shareActive) return "share_inactive";
  if (!flow.cloneActive) return "clone_inactive";
  if (flow.companyId !== companyId && flow.restrictCompanies && !flow.allowedCompanyIds.includes(companyId)) return "company_not_allowed";
  return null;
}

const refused = (reason: ShareRefusal) =>
  new AppError(
    "forbidden",
    reason === "share_inactive" ? "This flow is not shared." : reason === "clone_inactive" ? "Cloning this flow is turned off." : "Your company may not clone this flow.",
    { reason },
  );

/** The document without its secrets: pixel access tokens and integration header values blanked. */
function withoutSecrets(doc: FlowDocument): FlowDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((node) => {
      if (node.type === "facebook_pixel") return { ...node, data: { ...node.data, accessToken: "" } };
      if (node.type === "integration") return { ...node, data: { ...node.data, headers: node.data.headers.map((h) => ({ name: h.name, value: "" })) } };
      return node;
    }),
  };
}

/** Tag names the flow's action and condition blocks use. */
function tagNamesOf(doc: FlowDocument): string[] {
  const names = new Set<string>();
  for (const node of doc.nodes) {
    if (node.type === "action") for (const a of node.data.actions) if ((a.kind === "add_tag" || a.kind === "remove_tag") && a.tag) names.add(a.tag);
    if (node.type === "condition") for (const r of node.data.rules) if (r.kind === "tag" && r.tag) names.add(r.tag);
  }
  return [...names];
}

/** Copies the source company's media a document refers to into `companyId` and rewrites the refs. */
async function copyMedia(bucket: R2Bucket, fromCompanyId: string, companyId: string, text: string): Promise<string> {
  const pattern = new RegExp(`r2:media/${fromCompanyId}/[0-9a-f-]{36}\\.[a-z0-9]{1,5}`, "g");
  const refs = [...new Set(text.match(pattern) ?? [])];
  let out = text;
  for (const ref of refs) {
    const object = await bucket.get(ref.slice(3));
    if (!object) continue;
    const stored = await storeMedia(bucket, companyId, await object.arrayBuffer(), object.httpMetadata?.contentType ?? "application/octet-stream");
    out = out.split(ref).join(`r2:${stored.key}`);
  }
  return out;
}

/**
 * Flow `id` as the share link shows it to `companyId`: any company's flow while it is shared, the
 * caller's own flow always; 404 `not_found` otherwise, the same answer as for an id that does not
 * exist, so a share link never tells whether another company's unshared flow exists.
 */
async function findSharedFlow(db: Db, id: string, companyId: string): Promise<FlowRow> {
  const flow = await db.query.flows.findFirst({ where: eq(flows.id, id) });
  if (!flow || (!flow.shareActive && flow.companyId !== companyId)) throw notFound("Flow");
  return flow;
}

export const shareFlowRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("flow"))
  /**
   * GET /api/share-flow/{id} → SharedFlowAnswer. 404 `not_found` alike for an unknown flow and for
   * another company's flow that is not shared (its existence is not disclosed); 403 share_inactive
   * only for the caller's own unshared flow.
   */
  .get("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const flow = await findSharedFlow(db, c.req.valid("param").id, c.var.company.id);
    if (!flow.shareActive) throw refused("share_inactive");
    const owner = await db.query.companies.findFirst({ where: eq(companies.id, flow.companyId), columns: { name: true } });
    const reason = cloneRefusal(flow, c.var.company.id);
    const answer: SharedFlowAnswer = {
      flow: { ...presentFlowSummary(flow), allowedCompanyIds: [], companyName: owner?.name ?? "" },
      draft: withoutSecrets(draftOf(flow)),
      canClone: reason === null,
      ...(reason ? { reason } : {}),
    };
    return c.json(answer);
  })
  /**
   * POST /api/share-flow/{id}/clone → 201 FlowAnswer in the caller's company; 404 as for GET (unknown,
   * or another company's unshared flow); 403 with the refusal reason otherwise.
   */
  .post("/:id/clone", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const flow = await findSharedFlow(db, c.req.valid("param").id, companyId);
    const reason = cloneRefusal(flow, companyId);
    if (reason) throw refused(reason);
    const doc = withoutSecrets(draftOf(flow));
    let text = JSON.stringify(doc);
    if (flow.companyId !== companyId) {
      text = await copyMedia(c.env.FILES, flow.companyId, companyId, text);
      // Custom fields the flow refers to (by key, in {{key}} or a block's field) are created by name.
      const sourceFields = await db.select().from(customFields).where(eq(customFields.companyId, flow.companyId));
      const used = sourceFields.filter((f) => text.includes(`{{${f.key}}}`) || text.includes(`"${f.key}"`));
      if (used.length) {
        const existing = await db
          .select({ key: customFields.key, name: customFields.name })
          .from(customFields)
          .where(and(eq(customFields.companyId, companyId), or(inArray(customFields.key, used.map((f) => f.key)), inArray(customFields.name, used.map((f) => f.name)))));
        const taken = new Set(existing.flatMap((f) => [`k:${f.key}`, `n:${f.name}`]));
        const at = now();
        for (const f of used) {
          if (taken.has(`k:${f.key}`) || taken.has(`n:${f.name}`)) continue;
          await db
            .insert(customFields)
            .values({ id: newId(), companyId, name: f.name, key: f.key, type: f.type, kind: f.kind, formula: f.formula, value: null, createdAt: at, updatedAt: at })
            .onConflictDoNothing();
        }
      }
      await ensureTags(db, companyId, tagNamesOf(doc));
    }
    const at = now();
    const row: FlowRow = {
      id: newId(),
      companyId,
      folderId: null,
      name: flow.name,
      type: flow.type,
      draft: JSON.stringify(parseDraft(JSON.parse(text)).draft),
      ...freshFlowState(at),
    };
    await db.insert(flows).values(row);
    return c.json(presentFlow(row), 201);
  });
