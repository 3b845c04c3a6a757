/**
 * WebSockets through the real worker for tests: the hub (`/api/ws/hub`) and a ticket's room
 * (`/api/ws/tickets/{id}`), opened with a member's access token, every frame recorded as parsed JSON.
 */
import type { MessageAnswer, TicketAnswer } from "../../schema/realtime";
import { call } from "./helpers";

/** A frame of the hub or a room, as the tests read it. */
export type Frame = { type: string; seq?: number; ticketId?: string; message?: MessageAnswer; ticket?: TicketAnswer };

/** An open socket and the frames it received so far, in order. */
export type Socket = { ws: WebSocket; frames: Frame[] };

/** Opens `path` as a WebSocket through the worker with `token`; records every frame received. Throws unless the worker answers 101. */
export async function openSocket(path: string, token: string): Promise<Socket> {
  const res = await call("GET", `${path}?access_token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } });
  if (res.status !== 101 || !res.webSocket) throw new Error(`expected 101 with a WebSocket, got ${res.status} ${await res.text()}`);
  const ws = res.webSocket;
  const frames: Frame[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data)) as Frame));
  return { ws, frames };
}
