/**
 * Every route of spec §2's table: path, layout and guards, in the spec's order. Pure data, so a
 * test can hold it against the spec; router.tsx turns it into react-router routes with guard
 * loaders and the screen of each `screen` key.
 */

/** The layouts named by spec §2 ("none" for /access-denied, which has none specified). */
export type LayoutName = "default" | "broadcasts" | "registers" | "settings" | "franchises" | "auth" | "checkout" | "callback" | "none";

/** "all three" of spec §2. */
export const ALL_THREE = ["is-auth", "is-valid-subscription", "has-permission"] as const;
const LOGIN_ONLY = ["is-auth"] as const;
const LOGOUT_ONLY = ["is-logout"] as const;
const NONE = [] as const;

/** One registered route. */
export type RouteSpec = { path: string; layout: LayoutName; guards: readonly string[]; screen: ScreenKey };

/** Keys of the screens router.tsx renders. */
export type ScreenKey =
  | "dashboard" | "chats" | "contacts" | "crm" | "internalChats" | "keywords" | "quickMessages" | "connections"
  | "flowBuilder" | "shareFlow" | "folders" | "shippingCycles" | "shippingCycle" | "webhooks" | "webhook"
  | "broadcasts" | "broadcastHistory" | "customFields" | "tags"
  | "settingsCompany" | "settingsDataCleanup" | "settingsIntegration" | "settingsMembers" | "settingsOperatingHours"
  | "settingsRoles" | "settingsSubscription" | "settingsMyAccount"
  | "franchiseSettings" | "franchiseCompanies" | "franchiseEmail" | "franchiseIntegration" | "franchisePayment" | "franchiseRoles"
  | "login" | "register" | "forgotPassword" | "resetPassword" | "failedSubscription" | "instagramCallback"
  | "checkout" | "invoice" | "accessDenied";

/** The route table of spec §2. */
export const ROUTES: readonly RouteSpec[] = [
  { path: "/", layout: "default", guards: ALL_THREE, screen: "dashboard" },
  { path: "/chats", layout: "default", guards: ALL_THREE, screen: "chats" },
  { path: "/contacts", layout: "default", guards: ALL_THREE, screen: "contacts" },
  { path: "/crm", layout: "default", guards: ALL_THREE, screen: "crm" },
  { path: "/internal-chats", layout: "default", guards: ALL_THREE, screen: "internalChats" },
  { path: "/keywords", layout: "default", guards: ALL_THREE, screen: "keywords" },
  { path: "/quick-messages", layout: "default", guards: ALL_THREE, screen: "quickMessages" },
  { path: "/connections", layout: "default", guards: ALL_THREE, screen: "connections" },
  { path: "/flows/:id", layout: "default", guards: ALL_THREE, screen: "flowBuilder" },
  { path: "/share-flow/:id", layout: "default", guards: ALL_THREE, screen: "shareFlow" },
  { path: "/folders", layout: "default", guards: ALL_THREE, screen: "folders" },
  { path: "/folders/:id", layout: "default", guards: ALL_THREE, screen: "folders" },
  { path: "/shipping-cycle", layout: "default", guards: ALL_THREE, screen: "shippingCycles" },
  { path: "/shipping-cycle/:id", layout: "default", guards: ALL_THREE, screen: "shippingCycle" },
  { path: "/webhook", layout: "default", guards: ALL_THREE, screen: "webhooks" },
  { path: "/webhook/:id", layout: "default", guards: ALL_THREE, screen: "webhook" },
  { path: "/broadcasts", layout: "broadcasts", guards: ALL_THREE, screen: "broadcasts" },
  { path: "/broadcasts/history", layout: "broadcasts", guards: ALL_THREE, screen: "broadcastHistory" },
  { path: "/registers", layout: "registers", guards: ALL_THREE, screen: "customFields" },
  { path: "/registers/tags", layout: "registers", guards: ALL_THREE, screen: "tags" },
  { path: "/settings/company", layout: "settings", guards: ALL_THREE, screen: "settingsCompany" },
  { path: "/settings/data-cleanup", layout: "settings", guards: ALL_THREE, screen: "settingsDataCleanup" },
  { path: "/settings/integration", layout: "settings", guards: ALL_THREE, screen: "settingsIntegration" },
  { path: "/settings/members", layout: "settings", guards: ALL_THREE, screen: "settingsMembers" },
  { path: "/settings/operating-hours", layout: "settings", guards: ALL_THREE, screen: "settingsOperatingHours" },
  { path: "/settings/roles", layout: "settings", guards: ALL_THREE, screen: "settingsRoles" },
  { path: "/settings/subscription", layout: "settings", guards: ALL_THREE, screen: "settingsSubscription" },
  { path: "/settings", layout: "settings", guards: LOGIN_ONLY, screen: "settingsMyAccount" },
  { path: "/franchise", layout: "franchises", guards: LOGIN_ONLY, screen: "franchiseSettings" },
  { path: "/franchise/companies", layout: "franchises", guards: LOGIN_ONLY, screen: "franchiseCompanies" },
  { path: "/franchise/email", layout: "franchises", guards: LOGIN_ONLY, screen: "franchiseEmail" },
  { path: "/franchise/integration", layout: "franchises", guards: LOGIN_ONLY, screen: "franchiseIntegration" },
  { path: "/franchise/payment", layout: "franchises", guards: LOGIN_ONLY, screen: "franchisePayment" },
  { path: "/franchise/roles", layout: "franchises", guards: LOGIN_ONLY, screen: "franchiseRoles" },
  { path: "/login", layout: "auth", guards: LOGOUT_ONLY, screen: "login" },
  { path: "/register", layout: "auth", guards: LOGOUT_ONLY, screen: "register" },
  { path: "/forgot-password", layout: "auth", guards: LOGOUT_ONLY, screen: "forgotPassword" },
  { path: "/reset-password", layout: "auth", guards: LOGOUT_ONLY, screen: "resetPassword" },
  { path: "/failed-subscription", layout: "default", guards: ["is-auth", "is-invalid-subscription"], screen: "failedSubscription" },
  { path: "/callback/instagram", layout: "callback", guards: LOGIN_ONLY, screen: "instagramCallback" },
  { path: "/checkout/:id", layout: "checkout", guards: NONE, screen: "checkout" },
  { path: "/invoice/:id", layout: "checkout", guards: NONE, screen: "invoice" },
  { path: "/access-denied", layout: "none", guards: NONE, screen: "accessDenied" },
];
