/**
 * Toasts (spec §8: notification toasts last 5000 ms) and the spec's success messages as a helper.
 */
import { i18n, type MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { toast } from "sonner";
import { errorMessage, type ErrorContext } from "./error-messages";
import { TOAST_DURATION_MS, wantToaster } from "./toaster-state";

// Toast lifetime in ms (spec §8, §9); kept in toaster-state.ts so the toast outlet does not load this module.
export { TOAST_DURATION_MS } from "./toaster-state";

/** The success messages of spec §8, by kind. */
export const SUCCESS_MESSAGES = {
  created: msg`Created successfully.`,
  invited: msg`Invitation sent.`,
  edited: msg`Changes saved.`,
  deleted: msg`Deleted successfully.`,
  copied: msg`Copied to clipboard.`,
  builderSaved: msg`Builder saved.`,
  contactsImported: msg`Contacts imported.`,
  exportStarted: msg`Export started.`,
  passwordRecoverySent: msg`Password recovery instructions sent to your email.`,
  inviteAccepted: msg`Invitation accepted.`,
  inviteRejected: msg`Invitation rejected.`,
  builderStarted: msg`Builder started.`,
  accountActivated: msg`Account activated`,
} satisfies Record<string, MessageDescriptor>;

/** A success message kind of spec §8. */
export type SuccessKind = keyof typeof SUCCESS_MESSAGES;

/** Shows the spec's success toast of `kind` in the active language, with an optional second line. */
export function notifySuccess(kind: SuccessKind, description?: string): void {
  wantToaster();
  toast.success(i18n._(SUCCESS_MESSAGES[kind]), { duration: TOAST_DURATION_MS, description });
}

/** Shows the spec's message for a failed call as an error toast. */
export function notifyError(error: unknown, context: ErrorContext = "default"): void {
  wantToaster();
  toast.error(i18n._(errorMessage(error, context)), { duration: TOAST_DURATION_MS });
}
