/**
 * Names of a cycle step's wait units (spec §9 "Cycle units: second, minute, hour, day, month") and
 * a wait as a sentence part ("3 days"), as ICU plurals in the user's language.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { CycleUnit, CycleWait, EnrolmentStatus } from "../../../../../schema/validation/shipping-cycles";

/** A unit's name in the unit select. */
export const UNIT_LABELS: Record<CycleUnit, MessageDescriptor> = {
  second: msg`Seconds`,
  minute: msg`Minutes`,
  hour: msg`Hours`,
  day: msg`Days`,
  month: msg`Months`,
};

const WAIT_MESSAGES: Record<CycleUnit, MessageDescriptor> = {
  second: msg({ message: "{count, plural, one {# second} other {# seconds}}" }),
  minute: msg({ message: "{count, plural, one {# minute} other {# minutes}}" }),
  hour: msg({ message: "{count, plural, one {# hour} other {# hours}}" }),
  day: msg({ message: "{count, plural, one {# day} other {# days}}" }),
  month: msg({ message: "{count, plural, one {# month} other {# months}}" }),
};

/** A wait as text, e.g. "1 day", "3 months". */
export function waitText(i18n: I18n, wait: CycleWait): string {
  return i18n._({ ...WAIT_MESSAGES[wait.unit], values: { count: wait.value } });
}

/** An enrolment's state on the contact's page. */
export const ENROLMENT_STATUS_LABELS: Record<EnrolmentStatus, MessageDescriptor> = {
  waiting: msg({ message: "Active", context: "shipping cycle enrolment" }),
  held: msg({ message: "On hold: the cycle is turned off", context: "shipping cycle enrolment" }),
  done: msg({ message: "Finished", context: "shipping cycle enrolment" }),
};
