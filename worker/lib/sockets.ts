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
