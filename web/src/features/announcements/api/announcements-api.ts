/** Announcements (spec §7: GET /api/me/announcements?code, POST /api/me/announcements/seen {id}). */
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { announcementList } from "@/lib/answers";

/** Query keys of the announcements feature. */
export const announcementKeys = {
  all: ["announcements"] as const,
  byCode: (code: string) => [...announcementKeys.all, code] as const,
};

/** Unseen announcements for a screen code (e.g. `dashboard`). */
export const announcementsQuery = (code: string) =>
  queryOptions({
    queryKey: announcementKeys.byCode(code),
    queryFn: ({ signal }) => api.call("GET", "/me/announcements", announcementList, { query: { code }, signal }),
    select: (answer) => answer.results,
  });

/** Marks an announcement seen so it is not shown again. */
export function markAnnouncementSeen(id: string): Promise<void> {
  return api.send("POST", "/me/announcements/seen", { body: { id } });
}
