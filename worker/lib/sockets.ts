/** WebSocket helpers shared by the Durable Objects. */

/**
 * Completes the closing handshake from a `webSocketClose` handler. Codes 1005 (no status) and
 * 1006 (abnormal) are reported to us but may not be sent back, so those close with 1000.
 */
export function answerClose(ws: WebSocket, code: number, reason: string): void {
  const sendable = code === 1005 || code === 1006 || code === 1015 ? 1000 : code;
  try {
    ws.close(sendable, reason);
  } catch {
    // already closed
  }
}

/** A text frame's JSON object, or null for binary frames, bad JSON or non-objects. */
export function parseFrame(message: string | ArrayBuffer): Record<string, unknown> | null {
  if (typeof message !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(message);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : null;
  } catch {
    return null;
  }
}

/** Sends `text` to every socket (but `except`), ignoring sockets that close underneath us. */
export function sendAll(sockets: WebSocket[], text: string, except?: WebSocket): void {
  for (const ws of sockets) {
    if (ws === except) continue;
    try {
      ws.send(text);
    } catch {
      // closed underneath us; webSocketClose cleans up
    }
  }
}

/**
 * Close codes the app's sockets end with (web/src/lib/realtime.ts reads them; RFC 6455 §7.4.2
 * leaves 4000–4999 to applications):
 * - 4001 `session_ended`: the session the socket was opened with is over (logout, password reset,
 *   expiry). The client must not reconnect with that token.
 * - 4003 `access_changed`: the member's access changed (removed from the company, roles or a
 *   role's permissions edited). The client may reconnect at once; the new socket carries the new
 *   permissions (or is refused).
 */
export const CLOSE_SESSION_ENDED = 4001;
export const CLOSE_ACCESS_CHANGED = 4003;

/**
 * Why a session's sockets are closed; the reason text of the close frame.
 * - `session_revoked`: logout or password change/reset bumped the user's token version (4001).
 * - `session_expired`: the token's `exp` passed (4001).
 * - `membership_ended`: the member was removed from the company (4003).
 * - `permissions_changed`: the member's roles, or a role they hold, changed (4003).
 */
export type RevokeReason = "session_revoked" | "session_expired" | "membership_ended" | "permissions_changed";

/** The close code of each reason: 4001 when the token is dead, 4003 when only access changed. */
export function closeCodeOf(reason: RevokeReason): number {
  return reason === "membership_ended" || reason === "permissions_changed" ? CLOSE_ACCESS_CHANGED : CLOSE_SESSION_ENDED;
}

/**
 * The session a socket was opened with, kept in its attachment (survives hibernation). Set by the
 * worker after authentication (worker/routes/realtime.ts), never by the client.
 * - `ver`: the user's token version (users.token_version) of the token that opened it.
 * - `checkedAt`: ms UTC taken before the membership and permissions were read; an access change
 *   stamped at or after it makes the snapshot stale.
 * - `expiresAt`: ms UTC when the token expires (its `exp`); the socket is closed from then on.
 */
export type SocketSession = { userId: string; ver: number; checkedAt: number; expiresAt: number };

/**
 * What ends a user's sockets (of one company, or everywhere):
 * - `minVersion`: sockets opened with a token version below it (session_revoked);
 * - `accessChangedAt` (ms UTC): sockets whose permissions were read at or before it
 *   (membership_ended / permissions_changed, `reason`).
 * Either may be absent.
 */
export type Revocation = { userId: string; minVersion?: number; accessChangedAt?: number; reason?: "membership_ended" | "permissions_changed" };

/** What a Durable Object keeps per revoked user (the highest version, the latest access change). */
type KeptRevocation = { minVersion: number; accessChangedAt: number; reason: RevokeReason };

/** Why `kept` ends `session` (of the same user), or null when it does not. */
export function revokedBy(kept: KeptRevocation, session: Pick<SocketSession, "ver" | "checkedAt">): RevokeReason | null {
  if (session.ver < kept.minVersion) return "session_revoked";
  if (session.checkedAt <= kept.accessChangedAt) return kept.reason;
  return null;
}

/** Whether `value` carries the SocketSession fields (attachments written before issue 8 do not). */
export function isSocketSession(value: unknown): value is SocketSession {
  return (
    typeof value === "object" &&
    value !== null &&
    "userId" in value &&
    typeof value.userId === "string" &&
    "ver" in value &&
    typeof value.ver === "number" &&
    "checkedAt" in value &&
    typeof value.checkedAt === "number" &&
    "expiresAt" in value &&
    typeof value.expiresAt === "number"
  );
}

/** Closes `ws` with the code of `reason`, ignoring a socket that is already closed. */
export function closeSocket(ws: WebSocket, reason: RevokeReason): void {
  try {
    ws.close(closeCodeOf(reason), reason);
  } catch {
    // already closed
  }
}

/**
 * Storage of revocations inside a Durable Object's SQLite (CompanyHub and TicketRoom keep one row
 * per revoked user). Bounded by the number of users who ever had a socket there.
 */
export const REVOCATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS revocations (user_id TEXT PRIMARY KEY, min_version INTEGER NOT NULL, access_changed_at INTEGER NOT NULL, reason TEXT NOT NULL)";

/** Records `r`, keeping the highest version and the latest access change per user; answers the merged row. */
export function recordRevocation(sql: SqlStorage, r: Revocation): KeptRevocation {
  const row = sql
    .exec<{ min_version: number; access_changed_at: number; reason: string }>(
      `INSERT INTO revocations (user_id, min_version, access_changed_at, reason) VALUES (?, ?, ?, ?)
       ON CONFLICT(user_id) DO UPDATE SET min_version = MAX(min_version, excluded.min_version),
         reason = CASE WHEN excluded.access_changed_at >= access_changed_at THEN excluded.reason ELSE reason END,
         access_changed_at = MAX(access_changed_at, excluded.access_changed_at)
       RETURNING min_version, access_changed_at, reason`,
      r.userId,
      r.minVersion ?? 0,
      r.accessChangedAt ?? 0,
      r.reason ?? "permissions_changed",
    )
    .one();
  return kept(row);
}

function kept(row: { min_version: number; access_changed_at: number; reason: string }): KeptRevocation {
  return { minVersion: row.min_version, accessChangedAt: row.access_changed_at, reason: row.reason === "membership_ended" ? "membership_ended" : "permissions_changed" };
}

/**
 * Why `session` may not keep (or open) a socket in the Durable Object whose storage is `sql`: its
 * token expired, or a kept revocation covers it. Null when it may.
 */
export function refusal(sql: SqlStorage, session: SocketSession, at = Date.now()): RevokeReason | null {
  if (session.expiresAt <= at) return "session_expired";
  const row = sql
    .exec<{ min_version: number; access_changed_at: number; reason: string }>(
      "SELECT min_version, access_changed_at, reason FROM revocations WHERE user_id = ?",
      session.userId,
    )
    .toArray()[0];
  return row ? revokedBy(kept(row), session) : null;
}
