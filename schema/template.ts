/**
 * Message templates (spec §3 Quick message; issue 4 "Variables such as {{first_name}} and any custom
 * field are filled in when used"). Pure, shared by the worker (POST /api/quick-messages/{id}/render)
 * and the web's chat composer.
 *
 * A variable is `{{key}}` (spaces inside the braces allowed): the built-ins' keys (`first_name`,
 * `full_name`, `last_name`, `email`, `phone`, `document`, `last_message`, `last_media`,
 * `last_campaign`) and every custom field's key. A variable with no value, or that does not exist,
 * renders as an empty string, so a customer never sees raw braces.
 */

const VARIABLE = /\{\{\s*([a-z][a-z0-9_]{0,39})\s*\}\}/g;

/** The variable keys used in `text`, each once, in order of appearance. */
export function templateKeys(text: string): string[] {
  const keys: string[] = [];
  for (const match of text.matchAll(VARIABLE)) {
    const key = match[1];
    if (key && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/**
 * `text` with every `{{key}}` replaced by `vars.get(key)` (empty when absent or null). Looks keys
 * up in a Map, so `{{constructor}}` or `{{__proto__}}` are only ever ordinary missing variables.
 */
export function renderTemplate(text: string, vars: ReadonlyMap<string, string | null>): string {
  return text.replace(VARIABLE, (_all, key: string) => vars.get(key) ?? "");
}
