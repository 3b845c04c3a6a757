/// <reference types="vite/client" />

/** Build version embedded by the build-version plugin in web/vite.config.ts (spec §7 build check). */
declare const __APP_VERSION__: string;

/** A lingui catalog compiled on import by @lingui/vite-plugin. */
declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}
