/**
 * Invitations addressed to the user (spec §7: GET /api/me/invites, POST
 * /api/companies/invite/{id}/accept and /reject; §4 "the user is then reloaded").
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { inviteAnswer } from "@/lib/answers";

/** Query keys of the invites feature. */
export const inviteKeys = {
  all: ["invites"] as const,
  mine: () => [...inviteKeys.all, "mine"] as const,
};

/** GET /api/me/invites → pending invites. */
export const myInvitesQuery = () =>
  queryOptions({
    queryKey: inviteKeys.mine(),
    queryFn: ({ signal }) => api.call("GET", "/me/invites", z.array(inviteAnswer), { signal }),
  });

/** POST /api/companies/invite/{id}/accept. */
export function acceptInvite(id: string): Promise<void> {
  return api.send("POST", `/companies/invite/${encodeURIComponent(id)}/accept`);
}

/** POST /api/companies/invite/{id}/reject. */
export function rejectInvite(id: string): Promise<void> {
  return api.send("POST", `/companies/invite/${encodeURIComponent(id)}/reject`);
}
