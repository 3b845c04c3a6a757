/**
 * The team of the active company (spec §3 Member, §7): members, the company's pending invites,
 * inviting, cancelling an invite, changing a member's roles, removing a member. Permission
 * settings_members for all of them (worker/routes/members.ts, companies.ts).
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { inviteAnswer, memberAnswer, memberList } from "@/lib/answers";
import type { InviteAnswer, MemberAnswer } from "../../../../../schema/api-types";

/** Query keys of the team screen. */
export const teamKeys = {
  all: ["team"] as const,
  members: () => [...teamKeys.all, "members"] as const,
  invites: () => [...teamKeys.all, "invites"] as const,
};

/** GET /api/companies/members → MemberAnswer[], by name. */
export const membersQuery = () =>
  queryOptions({
    queryKey: teamKeys.members(),
    queryFn: ({ signal }) => api.call("GET", "/companies/members", memberList, { signal }),
  });

/** GET /api/companies/invites → the company's pending invites, newest first. */
export const companyInvitesQuery = () =>
  queryOptions({
    queryKey: teamKeys.invites(),
    queryFn: ({ signal }) => api.call("GET", "/companies/invites", z.array(inviteAnswer), { signal }),
  });

/** Body of POST /api/companies/invite (schema/validation/company.ts inviteInput). */
export type InviteBody = { email: string; roles: string[] };

/**
 * POST /api/companies/invite {email, roles} → 201 InviteAnswer (a pending address is re-invited
 * with the new roles). 400 `roles` invalid_id / roles_required, `email` invalid_email; 409
 * `email` already_member or `roles` owner_role; 429 rate_limited.
 */
export function inviteMember(body: InviteBody): Promise<InviteAnswer> {
  return api.call("POST", "/companies/invite", inviteAnswer, { body });
}

/** DELETE /api/companies/invite/{id} → 204: cancels a pending invite. 404 when gone. */
export function cancelInvite(id: string): Promise<void> {
  return api.send("DELETE", `/companies/invite/${encodeURIComponent(id)}`);
}

/**
 * PUT /api/companies/members/{id} {roles} → MemberAnswer. 409 for the owner or the Owner role,
 * 400 `roles` for unknown roles.
 */
export function updateMemberRoles(id: string, roles: string[]): Promise<MemberAnswer> {
  return api.call("PUT", `/companies/members/${encodeURIComponent(id)}`, memberAnswer, { body: { roles } });
}

/** DELETE /api/companies/members/{id} → 204. 409 for the owner. */
export function removeMember(id: string): Promise<void> {
  return api.send("DELETE", `/companies/members/${encodeURIComponent(id)}`);
}
