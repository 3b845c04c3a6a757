/**
 * One Instagram webhook delivery, after its signature was checked (issue 15). Each entry goes to
 * the connection of the account it names (`instagram_accounts`):
 * - its `messaging` events go through the same pipeline as WhatsApp's (worker/pipeline/inbound.ts
 *   `ingestBatch`: ContactSession, dedupe by mid, order), after two Instagram steps:
 *   - the sender's profile (`GET /{igsid}?fields=name,username,profile_pic`, kept in
 *     `instagram_profiles`, read again after a day) names a new contact;
 *   - a story mention names the connection's story-mention flow (`storyFlowId`), and the first DM
 *     after a comment's private reply names the comment rule's flow (`startFlowId`, taken by the
 *     ContactSession unless a member has the conversation open);
 * - its comments go to the comment automations (worker/lib/instagram-comments.ts).
 * An entry for an account no connection has is kept as a rejected event (as an unknown WhatsApp
 * number is).
 */
import { and, eq } from "drizzle-orm";
import { connections, instagramAccounts, instagramProfiles, type ConnectionRow } from "../../schema";
import type { InboundEvent, InboundMessage } from "../channels/types";
import { connectionsOfAccounts } from "../channels/instagram";
import { storyMentionUrl, type InstagramEntry } from "../channels/instagram-parse";
import { secretsKey } from "../channels";
import type { AppEnv } from "../env";
import { ingestBatch, type IngestSummary } from "../pipeline/inbound";
import type { Db } from "./db";
import { defaultFlowsOf } from "./flows";
import { newId } from "./ids";
import { keepRejected } from "./rejected-events";
import { actOnComment, markCommentFlowStarted, pendingCommentFlow, type CommentOutcome } from "./instagram-comments";
import { instagramOptions, readProfile } from "./instagram-graph";
import { decryptSecret } from "./secrets";

/** How long a contact's Instagram profile is trusted before it is read again (ms). */
export const PROFILE_TTL_MS = 24 * 3600 * 1000;

export type InstagramDeliverySummary = IngestSummary & { comments: Partial<Record<CommentOutcome, number>> };

/** The contact's profile name (`name`, else `@username`): from D1 when fresh, else from Instagram (failures: none). */
async function profileName(env: AppEnv, db: Db, connection: ConnectionRow, token: string, igsid: string, at: number): Promise<string | undefined> {
  const known = await db.query.instagramProfiles.findFirst({ where: and(eq(instagramProfiles.companyId, connection.companyId), eq(instagramProfiles.igsid, igsid)) });
  const show = (p: { name: string | null; username: string | null }) => p.name ?? (p.username ? `@${p.username}` : undefined);
  if (known && at - known.fetchedAt < PROFILE_TTL_MS) return show(known);
  let profile: Awaited<ReturnType<typeof readProfile>>;
  try {
    profile = await readProfile(instagramOptions(env), igsid, token);
  } catch {
    return known ? show(known) : undefined;
  }
  await db
    .insert(instagramProfiles)
    .values({ id: newId(), companyId: connection.companyId, igsid, name: profile.name, username: profile.username, pictureUrl: profile.pictureUrl, fetchedAt: at })
    .onConflictDoUpdate({
      target: [instagramProfiles.companyId, instagramProfiles.igsid],
      set: { name: profile.name, username: profile.username, pictureUrl: profile.pictureUrl, fetchedAt: at },
    });
  return show(profile);
}

/**
 * Handles the parsed entries of one delivery; resolves once everything is stored and every comment
 * acted on. Throws when a comment's private reply failed transiently (the caller answers 5xx and
 * Meta delivers again; messages already stored are deduplicated then).
 */
export async function handleInstagramDelivery(env: AppEnv, db: Db, entries: InstagramEntry[], receivedAt = Date.now()): Promise<InstagramDeliverySummary> {
  const summary: InstagramDeliverySummary = { stored: 0, duplicates: 0, statuses: 0, ignored: 0, rejected: 0, comments: {} };
  const add = (s: IngestSummary) => {
    summary.stored += s.stored;
    summary.duplicates += s.duplicates;
    summary.statuses += s.statuses;
    summary.ignored += s.ignored;
    summary.rejected += s.rejected;
  };
  const routes = await connectionsOfAccounts(db, entries.map((e) => e.igUserId));
  for (const entry of entries) {
    const connectionId = routes.get(entry.igUserId) ?? "";
    const connection = connectionId
      ? await db.query.connections.findFirst({ where: and(eq(connections.id, connectionId), eq(connections.channel, "instagram")) })
      : undefined;
    if (!connection) {
      // No connection has this account: kept as a rejected event without a company.
      if (entry.events.length > 0 || entry.comments.length > 0) {
        await keepRejected(env, db, {
          companyId: null,
          connectionId: null,
          channel: "instagram",
          reason: "unknown_phone_number_id",
          detail: `No connection has the Instagram account ${entry.igUserId}.`,
          payload: entry.raw,
          receivedAt,
        });
        summary.rejected += 1;
      }
      continue;
    }
    const token = connection.accessTokenEnc ? await decryptSecret(secretsKey(env), connection.accessTokenEnc) : "";
    const started: string[] = [];
    const events: InboundEvent[] = [];
    const names = new Map<string, string | undefined>();
    let storyFlowId: string | null | undefined;
    for (const event of entry.events) {
      if (event.kind !== "message") {
        events.push(event);
        continue;
      }
      if (!names.has(event.from)) names.set(event.from, token ? await profileName(env, db, connection, token, event.from, receivedAt) : undefined);
      const named: InboundMessage = { ...event, ...(names.get(event.from) ? { profileName: names.get(event.from) } : {}) };
      if (storyMentionUrl(event)) {
        storyFlowId ??= (await defaultFlowsOf(db, connection.companyId, connection.id)).storyFlowId;
        if (storyFlowId) named.startFlowId = storyFlowId;
      } else {
        const pending = await pendingCommentFlow(db, connection, event.from, receivedAt);
        if (pending) {
          named.startFlowId = pending.flowId;
          started.push(pending.actionId);
        }
      }
      events.push(named);
    }
    if (events.length > 0) add(await ingestBatch(env, db, "instagram", { route: { by: "connectionId", value: connection.id }, events, raw: entry.raw }, receivedAt));
    // The DM was handed to the contact's session: its comment flow is used up (once).
    for (const actionId of started) await markCommentFlowStarted(db, connection.companyId, actionId, receivedAt);
    if (entry.comments.length > 0 && token) {
      for (const comment of entry.comments) {
        const outcome = await actOnComment(env, db, connection, { igUserId: entry.igUserId, token }, comment, receivedAt);
        summary.comments[outcome] = (summary.comments[outcome] ?? 0) + 1;
      }
    }
  }
  return summary;
}

/** The account row of an Instagram connection (company-scoped), or undefined. */
export async function accountOf(db: Db, companyId: string, connectionId: string) {
  return db.query.instagramAccounts.findFirst({ where: and(eq(instagramAccounts.connectionId, connectionId), eq(instagramAccounts.companyId, companyId)) });
}
