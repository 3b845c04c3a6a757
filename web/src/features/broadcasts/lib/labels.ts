/**
 * Names of the broadcast enums in the user's language: statuses (spec §4), delay presets with their
 * ranges (spec §9), filter items and conditions, channels, recipients' rejection reasons and the
 * contact columns a template variable may take its value from.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type {
  BroadcastDelay,
  BroadcastStatus,
  CONTACT_VARIABLE_FIELDS,
  FILTER_CHANNELS,
  FilterCondition,
  FilterItem,
  RejectReason,
} from "../../../../../schema/validation/broadcasts";

/** Status badges (spec §4: waiting is "scheduled" when it has a date). */
export const STATUS_LABELS: Record<BroadcastStatus, MessageDescriptor> = {
  waiting: msg({ message: "Waiting", context: "broadcast status" }),
  started: msg({ message: "Started", context: "broadcast status" }),
  paused: msg({ message: "Paused", context: "broadcast status" }),
  done: msg({ message: "Finished", context: "broadcast status" }),
  cancelled: msg({ message: "Cancelled", context: "broadcast status" }),
};

/** A waiting broadcast with a date is shown as scheduled. */
export const SCHEDULED_LABEL = msg({ message: "Scheduled", context: "broadcast status" });

/** The delay presets (spec §9) with their range, e.g. "Very short (1–5 s)". */
export const DELAY_LABELS: Record<BroadcastDelay, MessageDescriptor> = {
  very_short: msg`Very short (1–5 s)`,
  short: msg`Short (5–20 s)`,
  average: msg`Average (20–50 s)`,
  long: msg`Long (50–120 s)`,
  very_long: msg`Very long (120–300 s)`,
};

/** What a filter looks at. */
export const ITEM_LABELS: Record<FilterItem, MessageDescriptor> = {
  tag: msg`Tag`,
  custom_field: msg`Custom field`,
  crm_column: msg`CRM column`,
  created_date: msg`Created date`,
  channel: msg`Channel`,
};

/** The conditions. */
export const CONDITION_LABELS: Record<FilterCondition, MessageDescriptor> = {
  is: msg({ message: "is", context: "filter condition" }),
  is_not: msg({ message: "is not", context: "filter condition" }),
  contains: msg({ message: "contains", context: "filter condition" }),
  greater: msg({ message: "is greater than", context: "filter condition" }),
  less: msg({ message: "is less than", context: "filter condition" }),
  before: msg({ message: "is before", context: "filter condition" }),
  after: msg({ message: "is after", context: "filter condition" }),
  has_tag: msg({ message: "has the tag", context: "filter condition" }),
  has_not_tag: msg({ message: "does not have the tag", context: "filter condition" }),
};

/** The channels a filter may name. */
export const CHANNEL_LABELS: Record<(typeof FILTER_CHANNELS)[number], MessageDescriptor> = {
  sandbox: msg`Sandbox phone`,
  "whatsapp-cloud": msg`WhatsApp Cloud API`,
  instagram: msg`Instagram`,
  "whatsapp-qr": msg`WhatsApp (QR code)`,
};

/** Why a recipient was rejected (schema/validation/broadcasts.ts REJECT_REASONS). */
export const REJECT_REASON_LABELS: Record<RejectReason, MessageDescriptor> = {
  opted_out: msg`The contact asked to receive no more messages.`,
  outside_window: msg`No message from the contact in the last 24 hours, and no approved template was chosen.`,
  no_identity: msg`The contact cannot be reached on this connection's channel.`,
  daily_limit: msg`The number's daily limit of new conversations was reached.`,
  contact_deleted: msg`The contact was deleted.`,
  send_failed: msg`The provider refused the message.`,
  flow_failed: msg`The flow could not start for this contact.`,
};

/** The contact columns a template variable may take its value from. */
export const CONTACT_VARIABLE_LABELS: Record<(typeof CONTACT_VARIABLE_FIELDS)[number], MessageDescriptor> = {
  full_name: msg`Full name`,
  first_name: msg`First name`,
  last_name: msg`Last name`,
  phone: msg`Phone`,
  email: msg`Email`,
  document: msg`Document`,
};
