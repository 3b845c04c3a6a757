/**
 * Connecting an Instagram professional account (issue 15; Instagram business login,
 * shared/reference/wire-formats-wave2.md §3.1–3.2) and keeping its token alive.
 *
 * 1. `startAuthorization`: a random `state` (32 bytes) is stored as its SHA-256, bound to the
 *    company, the user and the redirect URI, valid STATE_TTL_MS; the answer is Instagram's
 *    authorisation URL.
 * 2. `completeAuthorization`: the state is taken once (a conditional UPDATE that only a current,
 *    unused state of the same company and user passes: a forged, expired, foreign or replayed state
 *    answers 400 `invalid_state` and nothing is called); the code becomes a short-lived then a
 *    60-day token, `/me` names the account, the account is subscribed to webhooks, and the
 *    company's `instagram` connection for it is created or updated (token encrypted at rest, never
 *    returned; expiry stored). An account another company holds answers 409.
 * 3. `refreshInstagramTokens` (the scheduled job, worker/scheduled.ts): every token that expires within
 *    REFRESH_AHEAD_MS and is at least 24 h old is refreshed (Meta refuses younger ones); an expired
 *    one marks its connection DISCONNECTED (the user must log in again).
 */
import { and, asc, eq, gt, isNull, lt } from "drizzle-orm";
import { connections, instagramAccounts, instagramOauthStates, type ConnectionRow } from "../../schema";
import { secretsKey } from "../channels";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex } from "./crypto";
import { getDb, isUniqueViolation, type Db } from "./db";
import { AppError } from "./errors";
import { newId } from "./ids";
import {
  authorizeUrl,
  exchangeCode,
  instagramOptions,
  InstagramError,
  longLivedToken,
  readAccount,
  refreshLongLivedToken,
  subscribeAccount,
} from "./instagram-graph";
import { setConnectionStatus, syncDisconnected } from "./connections";
import { hubOf } from "./realtime";
import { decryptSecret, encryptSecret } from "./secrets";

/** How long a login `state` stays valid (ms). */
export const STATE_TTL_MS = 15 * 60 * 1000;
/** Tokens expiring within this time are refreshed by the daily job (ms). */
export const REFRESH_AHEAD_MS = 10 * 24 * 3600 * 1000;
/** Meta refreshes only tokens at least this old (ms). */
export const MIN_TOKEN_AGE_MS = 24 * 3600 * 1000;

/** The web route Instagram sends the browser back to (spec §2 `/callback/instagram`). */
export function redirectUriOf(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/callback/instagram`;
}

/** Stores a fresh state for the company and user; answers Instagram's authorisation URL. */
export async function startAuthorization(env: AppEnv, db: Db, input: { companyId: string; userId: string; origin: string }, at = Date.now()): Promise<{ url: string; expiresAt: number }> {
  const options = instagramOptions(env);
  if (!options.appId || !options.appSecret) {
    throw new AppError("provider_unavailable", "Instagram is not configured on this server (INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET).");
  }
  const state = randomToken(32);
  const redirectUri = redirectUriOf(input.origin);
  const expiresAt = at + STATE_TTL_MS;
  await db.delete(instagramOauthStates).where(lt(instagramOauthStates.expiresAt, at - STATE_TTL_MS));
  await db.insert(instagramOauthStates).values({ stateHash: await sha256Hex(state), companyId: input.companyId, userId: input.userId, redirectUri, expiresAt, usedAt: null, createdAt: at });
  return { url: authorizeUrl(options, state, redirectUri), expiresAt };
}

const invalidState = () => new AppError("validation_failed", "This Instagram login link is not valid or has expired. Start again from Connections.", { state: "invalid_state" });

/** An InstagramError of the login as the API answers it: 502 when Meta is unreachable, else 400 naming `code`. */
function loginFailure(error: unknown): AppError {
  if (error instanceof InstagramError && error.retryable) return new AppError("provider_unavailable", "Instagram could not be reached; nothing was saved. Try again in a moment.");
  if (error instanceof InstagramError) return new AppError("validation_failed", `Instagram refused the login: ${error.message}`, { code: "code_rejected" });
  return new AppError("provider_unavailable", "Instagram could not be reached; nothing was saved. Try again in a moment.");
}

/**
 * Completes the login (file header, step 2). Answers the connection, CONNECTED. Errors: 400
 * `invalid_state` (field `state`), 400 `code_rejected` (field `code`), 502 `provider_unavailable`,
 * 409 `conflict` (field `account`: `account_unavailable`) when another company holds the account.
 */
export async function completeAuthorization(
  env: AppEnv,
  db: Db,
  input: { companyId: string; userId: string; code: string; state: string },
  at = Date.now(),
): Promise<ConnectionRow> {
  const [taken] = await db
    .update(instagramOauthStates)
    .set({ usedAt: at })
    .where(
      and(
        eq(instagramOauthStates.stateHash, await sha256Hex(input.state)),
        eq(instagramOauthStates.companyId, input.companyId),
        eq(instagramOauthStates.userId, input.userId),
        isNull(instagramOauthStates.usedAt),
        gt(instagramOauthStates.expiresAt, at),
      ),
    )
    .returning();
  if (!taken) throw invalidState();
  const options = instagramOptions(env);
  let token: { accessToken: string; expiresAt: number };
  let account: Awaited<ReturnType<typeof readAccount>>;
  try {
    const short = await exchangeCode(options, input.code, taken.redirectUri);
    token = await longLivedToken(options, short, at);
    account = await readAccount(options, token.accessToken);
    await subscribeAccount(options, account.igUserId, token.accessToken);
  } catch (error) {
    throw loginFailure(error);
  }
  const accessTokenEnc = await encryptSecret(secretsKey(env), token.accessToken);
  const accessTokenHint = token.accessToken.slice(-4);
  const held = await db.query.instagramAccounts.findFirst({ where: eq(instagramAccounts.igUserId, account.igUserId) });
  const heldConnection = held ? await db.query.connections.findFirst({ where: eq(connections.id, held.connectionId) }) : undefined;
  if (held && heldConnection && heldConnection.companyId !== input.companyId) {
    throw new AppError("conflict", "This Instagram account is connected to another company.", { account: "account_unavailable" });
  }
  const accountColumns = { username: account.username, pictureUrl: account.pictureUrl, tokenExpiresAt: token.expiresAt, tokenRefreshedAt: at, updatedAt: at };
  if (held && heldConnection) {
    // The same account logged in again (a new token, maybe a new username): the connection stays.
    await db.update(connections).set({ accessTokenEnc, accessTokenHint, updatedAt: at }).where(and(eq(connections.id, heldConnection.id), eq(connections.companyId, input.companyId)));
    await db.update(instagramAccounts).set(accountColumns).where(eq(instagramAccounts.connectionId, heldConnection.id));
    return setConnectionStatus(env, db, { ...heldConnection, accessTokenEnc, accessTokenHint }, "CONNECTED");
  }
  // A row left by a deleted connection no longer holds the account.
  if (held) await db.delete(instagramAccounts).where(eq(instagramAccounts.connectionId, held.connectionId));
  const id = newId();
  const base = account.username ? `Instagram @${account.username}` : `Instagram ${account.igUserId}`;
  let row: ConnectionRow | undefined;
  for (let attempt = 1; !row && attempt <= 5; attempt++) {
    try {
      [row] = await db
        .insert(connections)
        .values({
          id,
          companyId: input.companyId,
          name: attempt === 1 ? base : `${base} (${attempt})`,
          channel: "instagram",
          status: "CONNECTED",
          accessTokenEnc,
          accessTokenHint,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt === 5) throw error;
    }
  }
  if (!row) throw new Error("connection not inserted");
  try {
    await db.insert(instagramAccounts).values({ connectionId: id, companyId: input.companyId, igUserId: account.igUserId, ...accountColumns, createdAt: at });
  } catch (error) {
    // A login of the same account finished first (two tabs): this connection gives way.
    await db.delete(connections).where(and(eq(connections.id, id), eq(connections.companyId, input.companyId)));
    if (isUniqueViolation(error)) throw new AppError("conflict", "This Instagram account was connected by another login a moment ago.", { account: "account_unavailable" });
    throw error;
  }
  await syncDisconnected(db, input.companyId, { id, name: row.name, type: row.channel }, true);
  await hubOf(env, input.companyId).publish({ type: "connection.updated", connection: { id, name: row.name, status: row.status } });
  return row;
}

/** What the daily refresh did. */
export type RefreshSummary = { refreshed: number; failed: number; expired: number };

/**
 * Refreshes the 60-day tokens that expire within REFRESH_AHEAD_MS (oldest expiry first, at most
 * `limit` a run) and are at least 24 h old; an expired token disconnects its connection. A token
 * Meta refuses to refresh is left as it is (it is tried again the next day) and counted as failed.
 */
export async function refreshInstagramTokens(env: AppEnv, db: Db, at = Date.now(), limit = 200): Promise<RefreshSummary> {
  const summary: RefreshSummary = { refreshed: 0, failed: 0, expired: 0 };
  const due = await db
    .select()
    .from(instagramAccounts)
    .where(lt(instagramAccounts.tokenExpiresAt, at + REFRESH_AHEAD_MS))
    .orderBy(asc(instagramAccounts.tokenExpiresAt))
    .limit(limit);
  const options = instagramOptions(env);
  for (const account of due) {
    const connection = await db.query.connections.findFirst({ where: and(eq(connections.id, account.connectionId), eq(connections.companyId, account.companyId)) });
    if (!connection?.accessTokenEnc) continue;
    if (account.tokenExpiresAt <= at) {
      if (connection.status === "CONNECTED") await setConnectionStatus(env, db, connection, "DISCONNECTED");
      summary.expired += 1;
      continue;
    }
    if (at - account.tokenRefreshedAt < MIN_TOKEN_AGE_MS) continue;
    try {
      const fresh = await refreshLongLivedToken(options, await decryptSecret(secretsKey(env), connection.accessTokenEnc), at);
      await db.batch([
        db
          .update(connections)
          .set({ accessTokenEnc: await encryptSecret(secretsKey(env), fresh.accessToken), accessTokenHint: fresh.accessToken.slice(-4), updatedAt: at })
          .where(and(eq(connections.id, connection.id), eq(connections.companyId, connection.companyId))),
        db.update(instagramAccounts).set({ tokenExpiresAt: fresh.expiresAt, tokenRefreshedAt: at, updatedAt: at }).where(eq(instagramAccounts.connectionId, account.connectionId)),
      ]);
      summary.refreshed += 1;
    } catch (error) {
      console.error("[instagram] token refresh failed", account.connectionId, error instanceof Error ? error.message : error);
      summary.failed += 1;
    }
  }
  return summary;
}

/**
 * The scheduled job (worker/scheduled.ts, hourly): refreshes what is due. Running it more often than
 * daily costs nothing: a refreshed token is due again only ~50 days later.
 */
export async function instagramTokensJob(env: AppEnv, at = Date.now()): Promise<void> {
  const summary = await refreshInstagramTokens(env, getDb(env.DB), at);
  if (summary.refreshed + summary.failed + summary.expired > 0) console.log("[instagram] tokens", JSON.stringify(summary));
}
