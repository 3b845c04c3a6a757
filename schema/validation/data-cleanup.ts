/**
 * Data cleanup (spec §4 "Data cleanup", §7 `GET/POST /companies/delete-data`; issue 12): the
 * request of POST /api/companies/delete-data and the answer of both calls, pure zod shared by the
 * worker and the app.
 */
import { z } from "zod";

/** What a cleanup deletes (spec §4: contacts, custom fields, tags, flows, or clear all). */
export const CLEANUP_TYPES = ["contacts", "custom_fields", "tags", "flows", "all"] as const;
export type CleanupType = (typeof CLEANUP_TYPES)[number];

/** Body of POST /api/companies/delete-data. 400 `type` `invalid_type` for anything else. */
export const dataCleanupInput = z.object({
  type: z.enum(CLEANUP_TYPES, { error: "invalid_type" }),
});
export type DataCleanupInput = z.infer<typeof dataCleanupInput>;

/** States of the deleting state: never ran (`none`), then the job's own states. */
export const CLEANUP_STATUSES = ["none", "queued", "running", "done", "failed"] as const;
export type CleanupStatus = (typeof CLEANUP_STATUSES)[number];

/**
 * The deleting state (GET and POST /api/companies/delete-data): the company's latest cleanup, or
 * `status: "none"` with nulls when it never ran one. `progress` is 0–100 (whole percent);
 * `processed`/`total` count the rows deleted so far and counted at the start; times ms UTC.
 */
export const dataCleanupAnswer = z.object({
  jobId: z.string().nullable(),
  type: z.enum(CLEANUP_TYPES).nullable(),
  status: z.enum(CLEANUP_STATUSES),
  progress: z.number(),
  processed: z.number(),
  total: z.number(),
  errorMessage: z.string().nullable(),
  startedAt: z.number().nullable(),
  updatedAt: z.number().nullable(),
});
export type DataCleanupAnswer = z.infer<typeof dataCleanupAnswer>;
