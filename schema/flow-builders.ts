/**
 * The flow builder's tables (issue 5; spec §2 Flow builder, §3 Builder flow, §4 Flow):
 * - `flow_folders`: folders of builders, nested (`parent_id` null = root);
 * - `flows`: a builder: name, folder, type, the editable draft document (schema/flows), sharing and
 *   cloning switches with the companies allowed to clone, and the latest published version;
 * - `flow_versions`: immutable published documents; a run keeps the version it started with;
 * - `flow_stats`: per block, how many runs reached it and how many ended there, and the rotary
 *   block's round-robin counter (kept per block across contacts);
 * - `connection_flows`: the default flows of a connection (default, media, campaign, story mention;
 *   DESIGN.md "The main job" step 3).
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

import { FLOW_TYPES } from "./enums";

/** A builder's type (spec §3 Builder flow), defined in schema/enums.ts (imported by the web without drizzle). */
export { FLOW_TYPES, type FlowType } from "./enums";

export const flowFolders = sqliteTable(
  "flow_folders",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** The folder it sits in (flow_folders.id of the same company), null at the root. */
    parentId: text("parent_id"),
    ...timestamps,
  },
  // The folders screen lists one level at a time.
  (t) => [
    index("flow_folders_parent_idx").on(t.companyId, t.parentId, t.name),
    // Folder names are unique within their parent, ignoring case (409 name_in_use); '' stands for
    // the root because NULLs never clash in a unique index.
    uniqueIndex("flow_folders_parent_name_uq").on(t.companyId, sql`coalesce(${t.parentId}, '')`, sql`lower(${t.name})`),
  ],
);

export const flows = sqliteTable(
  "flows",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    /** flow_folders.id, null at the root. */
    folderId: text("folder_id"),
    name: text("name").notNull(),
    type: text("type", { enum: FLOW_TYPES }).notNull().default("default"),
    /** The draft FlowDocument as JSON text (parsed and stored with defaults applied). */
    draft: text("draft").notNull(),
    shareActive: integer("share_active", { mode: "boolean" }).notNull().default(false),
    cloneActive: integer("clone_active", { mode: "boolean" }).notNull().default(false),
    /** When true only `allowed_company_ids` may clone. */
    restrictCompanies: integer("restrict_companies", { mode: "boolean" }).notNull().default(false),
    allowedCompanyIds: text("allowed_company_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** The newest flow_versions.version, null until first published. */
    publishedVersion: integer("published_version"),
    /** ms UTC of the newest publish. */
    publishedAt: integer("published_at"),
    ...timestamps,
  },
  // The folders screen lists one folder's builders by name.
  (t) => [index("flows_folder_idx").on(t.companyId, t.folderId, t.name)],
);

export const flowVersions = sqliteTable(
  "flow_versions",
  {
    flowId: text("flow_id").notNull(),
    /** 1, 2, 3… per flow. */
    version: integer("version").notNull(),
    companyId: text("company_id").notNull(),
    /** The FlowDocument as JSON text; never changed after insert. */
    document: text("document").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.version] })],
);

export const flowStats = sqliteTable(
  "flow_stats",
  {
    companyId: text("company_id").notNull(),
    flowId: text("flow_id").notNull(),
    nodeId: text("node_id").notNull(),
    /** Runs that entered the block. */
    reached: integer("reached").notNull().default(0),
    /** Runs that ended on the block (end of the path, failure, or stopped by a member). */
    stopped: integer("stopped").notNull().default(0),
    /** Contacts the rotary block has handed out (its round-robin counter). */
    rotary: integer("rotary").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.nodeId] })],
);

export const connectionFlows = sqliteTable(
  "connection_flows",
  {
    /** connections.id (one row per connection). */
    connectionId: text("connection_id").primaryKey(),
    companyId: text("company_id").notNull(),
    defaultFlowId: text("default_flow_id"),
    mediaFlowId: text("media_flow_id"),
    campaignFlowId: text("campaign_flow_id"),
    storyFlowId: text("story_flow_id"),
    updatedAt: integer("updated_at").notNull(),
  },
  // "Is this flow someone's default?" when a flow is deleted.
  (t) => [index("connection_flows_company_idx").on(t.companyId)],
);

export type FlowFolderRow = typeof flowFolders.$inferSelect;
export type FlowRow = typeof flows.$inferSelect;
export type FlowVersionRow = typeof flowVersions.$inferSelect;
export type ConnectionFlowsRow = typeof connectionFlows.$inferSelect;
