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
