/**
 * The pt-PT catalogs by name (lingui.config.ts), each loaded on demand. One such map per locale, so a
 * page downloads the list of its own language's catalogs only (i18n.ts; issue 9).
 */
import type { Messages } from "@lingui/core";

/** `../../../../locales/pt-PT/{name}.po` → its compiled catalog. */
export const CATALOGS = import.meta.glob<{ messages: Messages }>("../../../../locales/pt-PT/*.po");
