/**
 * Announcements of the Admin area (platform administrators only; worker/routes/admin-announcements.ts):
 * list, create, update, delete.
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import type { AdminAnnouncementAnswer, AnnouncementInput } from "../../../../../schema/validation/announcements";
import { ANNOUNCEMENT_AUDIENCES } from "../../../../../schema/validation/announcements";

/** Runtime parser of AdminAnnouncementAnswer. */
export const adminAnnouncementAnswer: z.ZodType<AdminAnnouncementAnswer> = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  code: z.string().nullable(),
  url: z.string().nullable(),
  audience: z.enum(ANNOUNCEMENT_AUDIENCES),
  startsAt: z.number().nullable(),
  endsAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const adminAnnouncementList = z.object({ results: z.array(adminAnnouncementAnswer), cursor: z.string().nullable(), total: z.number() });

/** Query keys of the Admin area's announcements. */
export const adminAnnouncementKeys = {
  all: ["admin", "announcements"] as const,
};

/** GET /api/admin/announcements → newest first. */
export const adminAnnouncementsQuery = () =>
  queryOptions({
    queryKey: adminAnnouncementKeys.all,
    queryFn: ({ signal }) => api.call("GET", "/admin/announcements", adminAnnouncementList, { signal }),
    select: (answer) => answer.results,
  });

/** POST /api/admin/announcements → 201 the announcement. */
export function createAnnouncement(input: AnnouncementInput): Promise<AdminAnnouncementAnswer> {
  return api.call("POST", "/admin/announcements", adminAnnouncementAnswer, { body: input });
}

/** PUT /api/admin/announcements/{id} → the announcement. */
export function updateAnnouncement(id: string, input: AnnouncementInput): Promise<AdminAnnouncementAnswer> {
  return api.call("PUT", `/admin/announcements/${encodeURIComponent(id)}`, adminAnnouncementAnswer, { body: input });
}

/** DELETE /api/admin/announcements/{id} → 204. */
export function deleteAnnouncement(id: string): Promise<void> {
  return api.send("DELETE", `/admin/announcements/${encodeURIComponent(id)}`);
}
