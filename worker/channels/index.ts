/** The adapter of each channel (DESIGN.md "Channels"). */
import type { ConnectionRow } from "../../schema";
import type { AppEnv } from "../env";
import { injectedSendFailure } from "../lib/faults";
import { evolutionAdapter } from "./evolution";
import { instagramAdapterOf } from "./instagram";
import { sandboxAdapter } from "./sandbox";
import type { ChannelAdapter } from "./types";
import { DEFAULT_GRAPH_URL, whatsappCloudAdapter } from "./whatsapp-cloud";

/** The key that encrypts provider secrets at rest: SECRETS_KEY, or JWT_SECRET when unset. */
export function secretsKey(env: AppEnv): string {
  return env.SECRETS_KEY || env.JWT_SECRET;
}

/** The adapter that speaks to `connection`'s provider. */
export function adapterFor(env: AppEnv, connection: Pick<ConnectionRow, "channel">): ChannelAdapter {
  switch (connection.channel) {
    case "whatsapp-cloud":
      return whatsappCloudAdapter({
        graphUrl: env.WHATSAPP_GRAPH_URL || DEFAULT_GRAPH_URL,
        secretsKey: secretsKey(env),
        appSecret: env.WHATSAPP_APP_SECRET ?? "",
        injectFailure: () => injectedSendFailure(env),
      });
    case "sandbox":
      return sandboxAdapter(env);
    case "instagram":
      return instagramAdapterOf(env, secretsKey(env), () => injectedSendFailure(env));
    case "whatsapp-qr":
      return evolutionAdapter(env, secretsKey(env));
  }
}

/** Providers as they appear in `/api/channels/{provider}/webhook`, and the channel each serves. */
export const PROVIDERS = { whatsapp: "whatsapp-cloud", sandbox: "sandbox", evolution: "whatsapp-qr" } as const satisfies Record<string, ConnectionRow["channel"]>;

/** The channel of a provider path segment, or null for an unknown provider. */
export function channelOfProvider(provider: string): ConnectionRow["channel"] | null {
  return Object.entries(PROVIDERS).find(([name]) => name === provider)?.[1] ?? null;
}
