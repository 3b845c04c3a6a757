/**
 * The sandbox channel: a built-in simulated phone for local development, demos and end-to-end
 * tests (DESIGN.md "Channels"). It pairs by QR code or an 8-character phone code exactly like a
 * real device, pushes the customers' events over HTTP with its device token, and receives what the
 * company sends through its SandboxDevice Durable Object, which relays it to the phone page.
 */
import type { AppEnv } from "../env";
import { sandboxDeviceOf } from "../lib/realtime";
import type { ChannelAdapter } from "./types";

export function sandboxAdapter(env: AppEnv): ChannelAdapter {
  return {
    channel: "sandbox",
    async send(connection, to, message) {
      const device = sandboxDeviceOf(env, connection.id);
      return device.deliver(to.externalId, message);
    },
    async presence(connection, to, state) {
      await sandboxDeviceOf(env, connection.id).presence(to.externalId, state);
    },
    async markRead(connection, to, externalId) {
      await sandboxDeviceOf(env, connection.id).read(to.externalId, externalId);
    },
    async fetchMedia() {
      // The sandbox phone sends media inline; there is nothing to fetch.
      throw new Error("sandbox media is inline");
    },
  };
}
