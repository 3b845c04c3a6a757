/**
 * Every "<number> <noun>" text of the app as an ICU plural (issue 9: "1 contact", "0 contacts" in
 * every language), in one table so no screen builds a count with a bare `${count} nouns`.
 *
 * Each message takes `count` (the number that picks the plural form) and, where a number may be
 * shown capped ("10,000+"), `shown` (the number as displayed, see {@link shownCount}). Languages
 * with more forms (none of the four today) add them in their catalog.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/** The count messages, by what they count. */
export const COUNT_MESSAGES = {
  contacts: msg({ message: "{count, plural, one {{shown} contact} other {{shown} contacts}}" }),
  contactsMatch: msg({ message: "{count, plural, one {{shown} contact matches} other {{shown} contacts match}}" }),
  selectAllContacts: msg({ message: "{count, plural, one {Select the {shown} contact} other {Select all {shown} contacts}}" }),
  loadedContactsSelected: msg({ message: "{count, plural, one {The # loaded contact is selected.} other {All # loaded contacts are selected.}}" }),
  allContactsShown: msg({ message: "{count, plural, one {# contact shown.} other {All # contacts shown.}}" }),
  contactsExported: msg({ message: "{count, plural, one {# contact exported.} other {# contacts exported.}}" }),
  contactsSelected: msg({ message: "{count, plural, one {{shown} selected} other {{shown} selected}}", comment: "Contacts selected in the list." }),
  addTagsTo: msg({ message: "{count, plural, one {Add tags to {shown} contact} other {Add tags to {shown} contacts}}" }),
  removeTagsFrom: msg({ message: "{count, plural, one {Remove tags from {shown} contact} other {Remove tags from {shown} contacts}}" }),
  deleteContacts: msg({ message: "{count, plural, one {Delete {shown} contact?} other {Delete {shown} contacts?}}" }),
  permissionsSelected: msg({ message: "{count, plural, one {# selected} other {# selected}}", comment: "Permissions chosen in a role." }),
  tags: msg({ message: "{count, plural, one {# tag} other {# tags}}" }),
  firstTags: msg({ message: "{count, plural, one {Showing the first {limit} of # tag.} other {Showing the first {limit} of # tags.}}" }),
  messagesCreated: msg({ message: "{count, plural, one {# message created} other {# messages created}}", comment: "Messages a keyword trigger has started flows on." }),
  blocksCopied: msg({ message: "{count, plural, one {# block copied.} other {# blocks copied.}}" }),
  rules: msg({ message: "{count, plural, one {# rule} other {# rules}}" }),
  bytes: msg({ message: "{count, plural, one {# byte} other {# bytes}}" }),
  notificationsUnread: msg({ message: "{count, plural, one {Notifications (# unread)} other {Notifications (# unread)}}" }),
  invitationsPending: msg({ message: "{count, plural, one {Invitations (# pending)} other {Invitations (# pending)}}" }),
  conversationUnread: msg({ message: "{count, plural, one {Conversation with {name}, # unread} other {Conversation with {name}, # unread}}" }),
  imported: msg({ message: "{count, plural, one {# imported.} other {# imported.}}", comment: "Contacts imported." }),
  importedRefused: msg({ message: "{count, plural, one {# imported} other {# imported}}, {refused, plural, one {# refused} other {# refused}}.", comment: "Contacts imported and rows refused." }),
} satisfies Record<string, MessageDescriptor>;

/** What a count message counts. */
export type CountKind = keyof typeof COUNT_MESSAGES;

/** A number as shown next to its noun in the active language, "+" after it when capped (e.g. "10,000+"). */
export function shownCount(i18n: I18n, count: number, capped = false): string {
  return `${i18n.number(count)}${capped ? "+" : ""}`;
}

/**
 * The text of `kind` for `count` in the active language of `i18n`. `values` adds the message's other
 * placeholders (`name`, `limit`, `refused`); `shown` defaults to the formatted count.
 */
export function countText(i18n: I18n, kind: CountKind, count: number, values: Record<string, string | number> = {}): string {
  return i18n._({ ...COUNT_MESSAGES[kind], values: { count, shown: shownCount(i18n, count), ...values } });
}
