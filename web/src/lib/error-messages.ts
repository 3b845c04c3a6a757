/**
 * Server error codes → the spec §8 messages, in the user's language. The worker's envelope carries
 * a stable `code` (worker/lib/errors.ts) and, for validation, `fields` of field → code
 * (schema/validation/*.ts). Form-level messages depend on the screen: login, register and reset
 * have their own wording (spec §8).
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { isApiError } from "./api";
import { loadCatalogs } from "./i18n";

// This table's translations are their own catalog ("errors", lingui.config.ts): loaded for the
// active language now and for any language switched to (the routes that use it load it first).
void loadCatalogs(["errors"]);

/** Which screen the error happened on (chooses the spec's screen-specific wording). */
export type ErrorContext = "default" | "login" | "register" | "reset" | "pairing";

const CODE_MESSAGES: Record<string, MessageDescriptor> = {
  invalid_credentials: msg`Unable to log in. Check your credentials and try again.`,
  email_in_use: msg`The email is already in use.`,
  name_in_use: msg`This name is already in use.`,
  phone_in_use: msg`A contact with this number already exists.`,
  payment_required: msg`Payment not made. Access temporarily suspended.`,
  no_company: msg`You are not part of any company!`,
  email_not_verified: msg`Verify your email address first.`,
  forbidden: msg`You do not have permission to access this page!`,
  validation_failed: msg`An error occurred. Check the data and try again.`,
  phone_number_unavailable: msg`This number cannot be connected.`,
  provider_unavailable: msg`Meta could not be reached, so nothing was saved. Try again in a moment.`,
  api_key_not_allowed: msg`API keys cannot be used for this.`,
  insufficient_scope: msg`This API key does not have the permission for this.`,
  invalid_coupon: msg`This coupon is invalid or has expired.`,
};

const DEFAULT_MESSAGE = msg`An error occurred. Try again.`;

/** The rate-limit message, with the wait in seconds when the server said how long. */
function rateLimited(seconds: number | null): MessageDescriptor {
  if (seconds === null) return msg`Too many attempts. Try again later.`;
  return msg`${plural(seconds, {
    one: "Too many attempts. Try again in # second.",
    other: "Too many attempts. Try again in # seconds.",
  })}`;
}

/** The message for a failed call (or any thrown value) on the given screen. */
export function errorMessage(error: unknown, context: ErrorContext = "default"): MessageDescriptor {
  if (!isApiError(error)) return DEFAULT_MESSAGE;
  if (error.code === "rate_limited") return rateLimited(error.retryAfter);
  switch (context) {
    case "login":
      if (error.code === "invalid_credentials" || error.status === 401) return CODE_MESSAGES.invalid_credentials ?? DEFAULT_MESSAGE;
      break;
    case "register":
      if (error.code === "email_in_use" || error.code === "validation_failed") break;
      return msg`Unable to complete registration. Check the information and try again.`;
    case "reset":
      if (error.code === "validation_failed" && !("token" in error.fields)) break;
      return msg`Unable to recover password. Check and try again.`;
    case "pairing":
      // The sandbox phone's code entry: a wrong or expired code has its own wording.
      if (error.code === "validation_failed") return msg`The code is not valid or has expired. Check the code on the Connections screen and try again.`;
      break;
    default:
      break;
  }
  return CODE_MESSAGES[error.code] ?? DEFAULT_MESSAGE;
}

/**
 * Whether a failed read means "there is nothing at this address": a 404, or the 400 the API gives
 * for a path id that is not an id at all (`fields.id: invalid_id`, e.g. /flows/whatever). Screens
 * show the app's not-found page for these, never "check your connection" (issue 9).
 */
export function isNotFound(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.status === 404 || (error.status === 400 && error.fields.id === "invalid_id");
}

const FIELD_MESSAGES: Record<string, MessageDescriptor> = {
  required: msg`This field is required.`,
  invalid_email: msg`Enter a valid email address.`,
  password_too_short: msg`The password must be at least 8 characters long.`,
  name_too_short: msg`The name must be at least 2 characters long.`,
  invalid_name: msg`Enter a valid name.`,
  invalid_phone: msg`Enter a valid phone number with area code.`,
  too_long: msg`This value is too long.`,
  invalid_id: msg`Invalid identifier.`,
  flow_required: msg`Choose a flow.`,
  invalid_timezone: msg`Choose a valid time zone.`,
  roles_required: msg`Choose at least one role.`,
  invalid_code: msg`Invalid code. Check the 6 digits and try again.`,
  expired_code: msg`This code has expired. Ask for a new one.`,
  permissions_not_held: msg`You cannot grant permissions you do not hold.`,
  own_roles: msg`You cannot change your own roles.`,
  invalid_permission: msg`Invalid permission.`,
  invalid_token: msg`This link is invalid or has expired.`,
  name_or_image_required: msg`Provide a name or an image.`,
  invalid_image: msg`The image is not valid.`,
  image_too_large: msg`The image is too large.`,
  email_in_use: msg`The email is already in use.`,
  name_in_use: msg`This name is already in use.`,
  already_member: msg`This person is already a member.`,
  owner_role: msg`The Owner role belongs to the company's owner only.`,
  passwords_mismatch: msg`The passwords do not match.`,
  invalid_phone_number_id: msg`Enter the phone number ID (digits only).`,
  invalid_waba_id: msg`Enter the WhatsApp Business Account ID (digits only).`,
  invalid_access_token: msg`Enter a valid access token.`,
  phone_number_id_in_use: msg`This phone number ID is already connected.`,
  // Cloud API number proof (worker/channels/whatsapp-cloud.ts proveCloudNumber)
  access_token_rejected: msg`Meta did not accept this access token. Check it and try again.`,
  phone_number_not_found: msg`This access token cannot use this phone number ID. Check both at Meta.`,
  phone_number_unavailable: msg`This number cannot be connected.`,
  not_applicable: msg`This does not apply to this kind of connection.`,
  not_refreshable: msg`Only a WhatsApp Cloud API connection can be refreshed.`,
  // Contacts, custom fields, tags (schema/validation/contacts.ts)
  phone_in_use: msg`A contact with this number already exists.`,
  invalid_document: msg`Enter a valid CPF, CNPJ, DNI, NIE or CUIT.`,
  invalid_number: msg`Enter a number.`,
  invalid_date: msg`Enter a valid date.`,
  invalid_datetime: msg`Enter a valid date and time.`,
  invalid_color: msg`Enter a colour as #rrggbb.`,
  text_or_file: msg`Write a text or attach a file.`,
  invalid_key: msg`Use lower-case letters, digits and _, starting with a letter.`,
  reserved_key: msg`This key belongs to a built-in field.`,
  too_many: msg`Too many items.`,
  immutable: msg`This cannot change once the field exists.`,
  read_only: msg`This value is computed and cannot be edited.`,
  in_use_by_formula: msg`A formula uses this field; change that formula first.`,
  // Formulas (schema/formula.ts)
  empty: msg`Enter a formula.`,
  too_deep: msg`The formula nests too many parentheses.`,
  syntax: msg`The formula is not valid: check the numbers, operators and parentheses.`,
  unknown_field: msg`The formula refers to a field that does not exist.`,
  not_numeric: msg`A formula may only use number fields that are not computed themselves.`,
  division_by_zero: msg`The formula divides by zero.`,
  needs_number_type: msg`A formula field must be of type Number.`,
  referenced_by_formula: msg`Another formula uses this field, so it cannot be computed itself.`,
  // Contact import (worker/routes/jobs.ts, schema/validation/jobs.ts)
  file_required: msg`Choose a file.`,
  not_xlsx: msg`The file must be .xlsx`,
  too_large: msg`The file is larger than 50 MB.`,
  empty_file: msg`The file is empty.`,
  damaged: msg`The file is damaged or is not a valid spreadsheet.`,
  encrypted: msg`The file is protected by a password. Save it without one and try again.`,
  unsupported: msg`This spreadsheet format is not supported.`,
  zip_bomb: msg`The file expands to too much data to be read safely.`,
  empty_sheet: msg`The spreadsheet is empty.`,
  no_rows: msg`The spreadsheet has a header row but no contacts.`,
  too_many_rows: msg`The spreadsheet has more than 500,000 rows.`,
  phone_required: msg`Choose the column that holds the phone number.`,
  duplicate_target: msg`Each field takes one column only (Tags may take several).`,
  invalid_sheet: msg`This sheet holds no cells (it is a chart or another kind of sheet). Choose another.`,
  no_worksheet: msg`This sheet holds no cells (it is a chart or another kind of sheet). Choose another.`,
  invalid_header_row: msg`Choose a row between 1 and 1,000.`,
  // API keys (schema/validation/api-keys.ts)
  scopes_required: msg`Choose at least one permission for the key.`,
  invalid_scope: msg`This permission does not exist.`,
  duplicate_scope: msg`Each permission may be chosen once.`,
  header_row_empty: msg`This row is empty. Choose the row that holds the column names.`,
  file_missing: msg`The uploaded file is no longer available. Upload it again.`,
  // Shared flows: `fields.reason` of a refused preview or clone (schema/flow-api.ts ShareRefusal)
  share_inactive: msg`This flow is no longer shared.`,
  clone_inactive: msg`The owner does not allow cloning this flow.`,
  company_not_allowed: msg`Your company is not among the companies allowed to clone this flow.`,
  // Broadcasts and shipping cycles (schema/validation/broadcasts.ts, shipping-cycles.ts)
  invalid_flow: msg`Choose a published flow.`,
  invalid_scheduled_date: msg`Choose a date and time from now on.`,
  invalid_delay: msg`Choose one of the delays.`,
  invalid_condition: msg`This condition does not fit what the filter looks at.`,
  invalid_value: msg`Enter a valid value for this filter.`,
  invalid_template: msg`Choose an approved template of this connection.`,
  not_integer: msg`Enter a whole number.`,
  too_small: msg`Enter 0 or more.`,
  wait_too_large: msg`Wait at most 100,000 of the unit.`,
  // Dashboard and announcements (schema/validation/dashboard.ts, announcements.ts; issue 12)
  after_to: msg`The start date must not be after the end date.`,
  range_too_long: msg`Choose at most 366 days.`,
  invalid_slug: msg`Use lower-case letters, digits, - and _ only.`,
  invalid_url: msg`Enter a link starting with http:// or https://.`,
  before_start: msg`The end must be after the start.`,
  // Event webhooks and the public API's media URLs (schema/validation/event-subscriptions.ts, v1.ts; issue 11)
  https_required: msg`Use an https:// address.`,
  not_http: msg`Use an http:// or https:// address.`,
  private_address: msg`Private, loopback and link-local addresses are not allowed.`,
  local_name: msg`Use a public host name, not a local one.`,
  credentials: msg`Remove the user name and password from the address.`,
  events_required: msg`Choose at least one event.`,
  invalid_event: msg`This event does not exist.`,
  duplicate_event: msg`Each event may be chosen once.`,
  // Billing (schema/validation/billing.ts; issue 13)
  invalid_card_number: msg`Enter a valid card number.`,
  invalid_expiry_month: msg`Enter the expiry month (1 to 12).`,
  invalid_expiry_year: msg`Enter the expiry year.`,
  card_expired: msg`This card has expired.`,
  invalid_ccv: msg`Enter the security code (3 digits, 4 for American Express).`,
  invalid_cpf_cnpj: msg`Enter a valid CPF or CNPJ.`,
  invalid_postal_code: msg`Enter a valid CEP (8 digits).`,
  invalid_state: msg`Choose a state.`,
  invalid_coupon: msg`This coupon is invalid or has expired.`,
  invalid_billing_type: msg`Choose card or PIX.`,
  invalid_price: msg`Enter a price, e.g. 49,90.`,
  invalid_limit: msg`Enter a whole number from 1, or leave blank for unlimited.`,
  invalid_cycle: msg`Choose a billing cycle.`,
  invalid_feature: msg`This feature does not exist.`,
  invalid_features: msg`Choose valid features.`,
  invalid_kind: msg`Choose percentage or fixed amount.`,
  invalid_plans: msg`Choose valid plans.`,
  invalid_plan: msg`Choose a plan on sale.`,
  card_refused: msg`The card was refused. Check its details or use another card.`,
  // Franchises (schema/validation/franchise.ts; issue 14)
  invalid_hostname: msg`Enter a host name such as app.example.com.`,
  hostname_in_use: msg`This host name belongs to a franchise already.`,
  cloudflare_not_configured: msg`Custom host names need the Cloudflare settings (CF_API_TOKEN, CF_ZONE_ID).`,
  invalid_port: msg`Enter a port from 1 to 65535.`,
  user_not_found: msg`Nobody has an account with this e-mail yet: the person signs up first.`,
  too_short: msg`Too short.`,
  feature_not_available: msg`Your company's plan does not include this feature.`,
};

/** The message under a field for a field code (client zod issue or server `fields` entry). */
export function fieldErrorMessage(code: string | undefined): MessageDescriptor {
  return (code && FIELD_MESSAGES[code]) || msg`Invalid value.`;
}

/** The field codes this module knows (the spec's list plus worker extras); used by tests. */
export const KNOWN_FIELD_CODES = Object.keys(FIELD_MESSAGES);
