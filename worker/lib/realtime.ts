/** Stubs of the Durable Objects, by the name that identifies each atom of coordination. */
import type { AppEnv } from "../env";

/** The company's hub (one per company). */
export function hubOf(env: AppEnv, companyId: string) {
  return env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(companyId));
}

/** The ticket's room (one per ticket). */
export function roomOf(env: AppEnv, ticketId: string) {
  return env.TICKET_ROOM.get(env.TICKET_ROOM.idFromName(ticketId));
}

/** The session of one contact identity on one channel of a company. */
export function contactSessionOf(env: AppEnv, companyId: string, channel: string, externalId: string) {
  return env.CONTACT_SESSION.get(env.CONTACT_SESSION.idFromName(`${companyId}:${channel}:${externalId}`));
}

/** The sandbox device of a sandbox connection (one per connection). */
export function sandboxDeviceOf(env: AppEnv, connectionId: string) {
  return env.SANDBOX_DEVICE.get(env.SANDBOX_DEVICE.idFromName(connectionId));
}
