/**
 * The data router: spec §2's route table (route-table.ts) grouped under its layouts, each route's
 * guards as its loader, the not-in-company / error screen at the root, and a catch-all 404 page
 * that shows the full path (spec §8).
 *
 * Every screen and every layout is loaded on demand (react-router `lazy`, one chunk each), so a
 * page downloads only its own code: /login never loads the flow editor (@xyflow/react), the CRM
 * board (dnd-kit), the import dialog, charts or the chats centre (issue 9 "Load only what a screen
 * needs"; measured by `npm run bench:web`). Guards stay eager (they run before the chunk is used).
 */
import { createBrowserRouter, type RouteObject } from "react-router";
import { Spinner } from "@/components/ui/spinner";
import { reloadOnChunkError } from "@/lib/build-check";
import { loadCatalogs, type CatalogName } from "@/lib/i18n";
import { setRouterNavigate } from "@/lib/session";
import { guardLoader } from "./guard-loader";
import { ROUTES, type LayoutName, type ScreenKey } from "./route-table";
import { AUTH_ROUTE_ID, RootErrorScreen, RootFrame } from "./root-frame";

/** A route's lazily loaded part: its component (or element), resolved from its own chunk. */
export type LazyRoute = () => Promise<Pick<RouteObject, "Component" | "element">>;

/**
 * A lazy route whose component `pick` takes from the loaded chunk, rendered once the translations
 * of the features it uses (`catalogs`, lingui.config.ts; checked against its imports by
 * router-catalogs.test.ts) are loaded too; a missing chunk reloads once (build-check).
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => NonNullable<RouteObject["Component"]>, catalogs: readonly CatalogName[]): LazyRoute {
  return reloadOnChunkError(async () => {
    const [module] = await Promise.all([load(), loadCatalogs(catalogs)]);
    return { Component: pick(module) };
  });
}

/** Each screen of the route table, loaded on demand. */
export const SCREENS: Record<ScreenKey, LazyRoute> = {
  dashboard: screen(() => import("@/features/dashboard/components/dashboard-page"), (m) => m.DashboardPage, ["announcements", "dashboard", "errors", "session", "shell"]),
  chats: screen(() => import("@/features/chats/components/chats-page"), (m) => m.ChatsPage, ["chats", "errors", "instagram", "quick-messages", "session", "shell"]),
  contacts: screen(() => import("@/features/contacts/components/contacts-page"), (m) => m.ContactsPage, ["companies", "contacts", "errors", "flows", "registers", "session", "shell", "shipping-cycles"]),
  crm: screen(() => import("@/features/crm/components/crm-page"), (m) => m.CrmPage, ["crm", "errors", "session", "shell"]),
  internalChats: screen(() => import("@/features/internal-chats/components/internal-chats-page"), (m) => m.InternalChatsPage, ["chats", "errors", "instagram", "internal-chats", "session", "shell"]),
  keywords: screen(() => import("@/features/keywords/components/keywords-page"), (m) => m.KeywordsPage, ["errors", "keywords", "shell"]),
  quickMessages: screen(() => import("@/features/quick-messages/components/quick-messages-page"), (m) => m.QuickMessagesPage, ["errors", "quick-messages", "shell"]),
  connections: screen(() => import("@/features/connections/components/connections-page"), (m) => m.ConnectionsPage, ["auth", "companies", "connections", "errors", "instagram", "shell"]),
  flowBuilder: screen(() => import("@/features/flows/components/editor/flow-editor-page"), (m) => m.FlowEditorPage, ["errors", "flows", "shell"]),
  shareFlow: screen(() => import("@/features/flows/components/share-flow-page"), (m) => m.ShareFlowPage, ["errors", "flows", "shell"]),
  folders: screen(() => import("@/features/flows/components/folders-page"), (m) => m.FoldersPage, ["errors", "flows", "shell"]),
  shippingCycles: screen(() => import("@/features/shipping-cycles/components/shipping-cycles-page"), (m) => m.ShippingCyclesPage, ["errors", "shell", "shipping-cycles"]),
  shippingCycle: screen(() => import("@/features/shipping-cycles/components/shipping-cycle-page"), (m) => m.ShippingCyclePage, ["errors", "shell", "shipping-cycles"]),
  webhooks: screen(() => import("@/features/webhooks/components/webhooks-page"), (m) => m.WebhooksPage, ["errors", "shell", "webhooks"]),
  webhook: screen(() => import("@/features/webhooks/components/webhook-page"), (m) => m.WebhookPage, ["errors", "shell", "webhooks"]),
  broadcasts: screen(() => import("@/features/broadcasts/components/broadcasts-page"), (m) => m.BroadcastsPage, ["broadcasts", "companies", "errors", "registers", "shell"]),
  broadcastHistory: screen(() => import("@/features/broadcasts/components/broadcasts-page"), (m) => m.BroadcastHistoryPage, ["broadcasts", "companies", "errors", "registers", "shell"]),
  customFields: screen(() => import("@/features/registers/components/custom-fields-page"), (m) => m.CustomFieldsPage, ["companies", "errors", "registers", "shell"]),
  tags: screen(() => import("@/features/registers/components/tags-page"), (m) => m.TagsPage, ["errors", "registers", "shell"]),
  settingsCompany: screen(() => import("@/features/settings/components/company-page"), (m) => m.CompanySettingsPage, ["companies", "errors", "session", "settings", "shell"]),
  settingsDataCleanup: screen(() => import("@/features/settings/components/data-cleanup-page"), (m) => m.DataCleanupSettingsPage, ["companies", "errors", "settings", "shell"]),
  settingsIntegration: screen(() => import("@/features/settings/components/integration-page"), (m) => m.IntegrationSettingsPage, ["companies", "errors", "session", "settings", "shell"]),
  settingsMembers: screen(() => import("@/features/settings/components/members-page"), (m) => m.MembersSettingsPage, ["errors", "members", "roles", "session", "settings", "shell"]),
  settingsOperatingHours: screen(() => import("@/features/settings/components/operating-hours-page"), (m) => m.OperatingHoursSettingsPage, ["connections", "errors", "flows", "settings", "shell"]),
  settingsRoles: screen(() => import("@/features/settings/components/roles-page"), (m) => m.RolesSettingsPage, ["errors", "roles", "session", "settings", "shell"]),
  settingsSubscription: screen(() => import("@/features/settings/components/subscription-page"), (m) => m.SubscriptionSettingsPage, ["billing", "companies", "errors", "session", "settings", "shell"]),
  settingsMyAccount: screen(() => import("@/features/settings/components/my-account-page"), (m) => m.MyAccountSettingsPage, ["companies", "errors", "session", "settings", "shell"]),
  franchiseSettings: screen(() => import("@/features/franchise/components/franchise-settings-page"), (m) => m.FranchiseSettingsPage, ["errors", "franchise", "settings", "shell"]),
  franchiseCompanies: screen(() => import("@/features/franchise/components/franchise-companies-page"), (m) => m.FranchiseCompaniesPage, ["errors", "franchise", "shell"]),
  franchiseEmail: screen(() => import("@/features/franchise/components/franchise-email-page"), (m) => m.FranchiseEmailPage, ["errors", "franchise", "settings", "shell"]),
  franchiseIntegration: screen(() => import("@/features/franchise/components/franchise-integration-page"), (m) => m.FranchiseIntegrationPage, ["errors", "franchise", "shell"]),
  franchisePayment: screen(() => import("@/features/franchise/components/franchise-payment-page"), (m) => m.FranchisePaymentPage, ["billing", "errors", "franchise", "shell"]),
  franchiseRoles: screen(() => import("@/features/franchise/components/franchise-roles-page"), (m) => m.FranchiseRolesPage, ["errors", "franchise", "shell"]),
  login: screen(() => import("@/features/auth/components/login-page"), (m) => m.LoginPage, ["auth"]),
  register: screen(() => import("@/features/auth/components/register-page"), (m) => m.RegisterPage, ["auth", "errors"]),
  forgotPassword: screen(() => import("@/features/auth/components/forgot-password-page"), (m) => m.ForgotPasswordPage, ["auth", "errors", "shell"]),
  resetPassword: screen(() => import("@/features/auth/components/reset-password-page"), (m) => m.ResetPasswordPage, ["auth", "errors"]),
  failedSubscription: screen(() => import("./routes/failed-subscription"), (m) => m.FailedSubscriptionPage, ["billing", "companies", "errors", "session", "shell"]),
  instagramCallback: screen(() => import("@/features/instagram/components/instagram-callback-page"), (m) => m.InstagramCallbackPage, ["errors", "instagram", "shell"]),
  checkout: screen(() => import("@/features/billing/components/checkout-page"), (m) => m.CheckoutPage, ["billing", "companies", "errors", "shell"]),
  invoice: screen(() => import("@/features/billing/components/invoice-page"), (m) => m.InvoicePage, ["billing", "errors", "shell"]),
  accessDenied: screen(() => import("./routes/access-denied"), (m) => m.AccessDeniedPage, ["shell"]),
};

/** Each layout of spec §2, loaded on demand (the app shell is not needed by /login). */
export const LAYOUTS: Record<Exclude<LayoutName, "none">, LazyRoute> = {
  default: screen(() => import("./layouts/default-layout"), (m) => m.DefaultLayout, ["announcements", "billing", "companies", "connections", "errors", "invites", "notifications", "session", "shell"]),
  broadcasts: screen(() => import("./layouts/section-layout"), (m) => m.BroadcastsLayout, ["announcements", "billing", "companies", "connections", "errors", "invites", "notifications", "session", "shell"]),
  registers: screen(() => import("./layouts/section-layout"), (m) => m.RegistersLayout, ["announcements", "billing", "companies", "connections", "errors", "invites", "notifications", "session", "shell"]),
  settings: screen(() => import("./layouts/section-layout"), (m) => m.SettingsLayout, ["announcements", "billing", "companies", "connections", "errors", "invites", "notifications", "session", "shell"]),
  franchises: screen(() => import("./layouts/section-layout"), (m) => m.FranchisesLayout, ["announcements", "billing", "companies", "connections", "errors", "invites", "notifications", "session", "shell"]),
  auth: screen(() => import("./layouts/auth-layout"), (m) => m.AuthLayout, []),
  checkout: screen(() => import("./layouts/plain-layouts"), (m) => m.CheckoutLayout, []),
  callback: screen(() => import("./layouts/plain-layouts"), (m) => m.CallbackLayout, []),
};

/** The route objects: one pathless layout route per layout, its pages as children. */
export function buildRoutes(): RouteObject[] {
  const layoutRoutes = new Map<LayoutName, RouteObject[]>();
  for (const route of ROUTES) {
    const child: RouteObject = { path: route.path, loader: guardLoader(route.path, route.guards), lazy: SCREENS[route.screen] };
    const list = layoutRoutes.get(route.layout) ?? [];
    list.push(child);
    layoutRoutes.set(route.layout, list);
  }
  const children: RouteObject[] = [];
  for (const [layout, routes] of layoutRoutes) {
    if (layout === "none") children.push(...routes);
    // The auth layout's id tells the root frame not to load react-query there (root-frame.tsx).
    else children.push({ ...(layout === "auth" ? { id: AUTH_ROUTE_ID } : {}), lazy: LAYOUTS[layout], children: routes });
  }
  // The sandbox simulator of DESIGN.md "Channels": a phone page outside the spec's table (no
  // login, no guards, no app layout); it authenticates with its own device token.
  children.push({ path: "/sandbox/phone", lazy: screen(() => import("@/features/sandbox-phone/components/sandbox-phone-page"), (m) => m.SandboxPhonePage, ["connections", "errors", "sandbox-phone", "shell"]) });
  // The public API's reference (issue 11): public like the OpenAPI document it renders, no app layout.
  children.push({ path: "/docs/api", lazy: screen(() => import("@/features/api-docs/components/api-docs-page"), (m) => m.ApiDocsPage, ["api-docs", "shell"]) });
  // The Admin area of platform administrators (DESIGN.md "Platform administration"; issue 12),
  // outside the spec's table: in the app shell, signed-in only; the screen itself and the API
  // refuse anyone who is not a platform administrator. Later issues add plans and franchises here.
  children.push({
    lazy: LAYOUTS.default,
    children: [
      {
        path: "/admin/announcements",
        loader: guardLoader("/admin/announcements", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-announcements-page"), (m) => m.AdminAnnouncementsPage, ["admin", "announcements", "errors", "session", "shell"]),
      },
      {
        path: "/admin/plans",
        loader: guardLoader("/admin/plans", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-plans-page"), (m) => m.AdminPlansPage, ["admin", "billing", "errors", "session", "shell"]),
      },
      {
        path: "/admin/coupons",
        loader: guardLoader("/admin/coupons", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-coupons-page"), (m) => m.AdminCouponsPage, ["admin", "billing", "errors", "session", "shell"]),
      },
      {
        path: "/admin/franchises",
        loader: guardLoader("/admin/franchises", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-franchises-page"), (m) => m.AdminFranchisesPage, ["admin", "errors", "franchise", "session", "settings", "shell"]),
      },
    ],
  });
  children.push({ path: "*", lazy: screen(() => import("./routes/not-found"), (m) => m.NotFoundPage, []) });
  return [
    {
      id: "root",
      element: <RootFrame />,
      // The error screen may show the not-in-company screen, which reads through react-query.
      errorElement: <RootErrorScreen />,
      hydrateFallbackElement: (
        <div className="flex min-h-dvh items-center justify-center">
          <Spinner className="size-6 text-muted-foreground" />
        </div>
      ),
      children,
    },
  ];
}

/** Creates the app's browser router; it also becomes the navigation used by the session (login redirects). */
export function createAppRouter() {
  const router = createBrowserRouter(buildRoutes());
  setRouterNavigate((path) => void router.navigate(path));
  return router;
}
