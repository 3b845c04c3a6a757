/**
 * The name of a duplicated builder in the user's language (issue 9: "(copy)" translated): the app
 * sends it with POST /api/flows/{id}/duplicate, so the worker never has to know the language.
 * Cut to the 100 characters a flow name may have (schema/validation/flows.ts).
 */
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/** Longest flow name the API accepts. */
const FLOW_NAME_MAX = 100;

const COPY_NAME = msg({ message: "{name} (copy)", comment: "Name of a duplicated flow builder; {name} is the original's name." });

/** "<name> (copy)" in the active language, at most 100 characters (the original name is cut). */
export function copyName(name: string): string {
  const room = Math.max(0, FLOW_NAME_MAX - i18n._({ ...COPY_NAME, values: { name: "" } }).length);
  return i18n._({ ...COPY_NAME, values: { name: name.slice(0, room).trimEnd() } });
}
