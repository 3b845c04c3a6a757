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
import { setRouterNavigate } from "@/lib/session";
import { guardLoader } from "./guard-loader";
import { ROUTES, type LayoutName, type ScreenKey } from "./route-table";
import { NotFoundPage } from "./routes/not-found";
import { RootErrorPage } from "./routes/root-error";

/** A route's lazily loaded part: its component (or element), resolved from its own chunk. */
export type LazyRoute = () => Promise<Pick<RouteObject, "Component" | "element">>;

/** A lazy route whose component `pick` takes from the loaded chunk; a missing chunk reloads once (build-check). */
function screen<M>(load: () => Promise<M>, pick: (module: M) => NonNullable<RouteObject["Component"]>): LazyRoute {
  return reloadOnChunkError(async () => ({ Component: pick(await load()) }));
}

/** Each screen of the route table, loaded on demand. */
export const SCREENS: Record<ScreenKey, LazyRoute> = {
  dashboard: screen(() => import("@/features/dashboard/components/dashboard-page"), (m) => m.DashboardPage),
  chats: screen(() => import("@/features/chats/components/chats-page"), (m) => m.ChatsPage),
  contacts: screen(() => import("@/features/contacts/components/contacts-page"), (m) => m.ContactsPage),
  crm: screen(() => import("@/features/crm/components/crm-page"), (m) => m.CrmPage),
  internalChats: screen(() => import("@/features/internal-chats/components/internal-chats-page"), (m) => m.InternalChatsPage),
  keywords: screen(() => import("@/features/keywords/components/keywords-page"), (m) => m.KeywordsPage),
  quickMessages: screen(() => import("@/features/quick-messages/components/quick-messages-page"), (m) => m.QuickMessagesPage),
  connections: screen(() => import("@/features/connections/components/connections-page"), (m) => m.ConnectionsPage),
  flowBuilder: screen(() => import("@/features/flows/components/editor/flow-editor-page"), (m) => m.FlowEditorPage),
  shareFlow: screen(() => import("@/features/flows/components/share-flow-page"), (m) => m.ShareFlowPage),
  folders: screen(() => import("@/features/flows/components/folders-page"), (m) => m.FoldersPage),
  shippingCycles: screen(() => import("@/features/shipping-cycles/components/shipping-cycles-page"), (m) => m.ShippingCyclesPage),
  shippingCycle: screen(() => import("@/features/shipping-cycles/components/shipping-cycle-page"), (m) => m.ShippingCyclePage),
  webhooks: screen(() => import("@/features/webhooks/components/webhooks-page"), (m) => m.WebhooksPage),
  webhook: screen(() => import("@/features/webhooks/components/webhook-page"), (m) => m.WebhookPage),
  broadcasts: screen(() => import("@/features/broadcasts/components/broadcasts-page"), (m) => m.BroadcastsPage),
  broadcastHistory: screen(() => import("@/features/broadcasts/components/broadcasts-page"), (m) => m.BroadcastHistoryPage),
  customFields: screen(() => import("@/features/registers/components/custom-fields-page"), (m) => m.CustomFieldsPage),
  tags: screen(() => import("@/features/registers/components/tags-page"), (m) => m.TagsPage),
  settingsCompany: screen(() => import("@/features/settings/components/company-page"), (m) => m.CompanySettingsPage),
  settingsDataCleanup: screen(() => import("@/features/settings/components/data-cleanup-page"), (m) => m.DataCleanupSettingsPage),
  settingsIntegration: screen(() => import("@/features/settings/components/integration-page"), (m) => m.IntegrationSettingsPage),
  settingsMembers: screen(() => import("@/features/settings/components/members-page"), (m) => m.MembersSettingsPage),
  settingsOperatingHours: screen(() => import("@/features/settings/components/operating-hours-page"), (m) => m.OperatingHoursSettingsPage),
  settingsRoles: screen(() => import("@/features/settings/components/roles-page"), (m) => m.RolesSettingsPage),
  settingsSubscription: screen(() => import("@/features/settings/components/subscription-page"), (m) => m.SubscriptionSettingsPage),
  settingsMyAccount: screen(() => import("@/features/settings/components/my-account-page"), (m) => m.MyAccountSettingsPage),
  franchiseSettings: screen(() => import("@/features/franchise/components/franchise-settings-page"), (m) => m.FranchiseSettingsPage),
  franchiseCompanies: screen(() => import("@/features/franchise/components/franchise-companies-page"), (m) => m.FranchiseCompaniesPage),
  franchiseEmail: screen(() => import("@/features/franchise/components/franchise-email-page"), (m) => m.FranchiseEmailPage),
  franchiseIntegration: screen(() => import("@/features/franchise/components/franchise-integration-page"), (m) => m.FranchiseIntegrationPage),
  franchisePayment: screen(() => import("@/features/franchise/components/franchise-payment-page"), (m) => m.FranchisePaymentPage),
  franchiseRoles: screen(() => import("@/features/franchise/components/franchise-roles-page"), (m) => m.FranchiseRolesPage),
  login: screen(() => import("@/features/auth/components/login-page"), (m) => m.LoginPage),
  register: screen(() => import("@/features/auth/components/register-page"), (m) => m.RegisterPage),
  forgotPassword: screen(() => import("@/features/auth/components/forgot-password-page"), (m) => m.ForgotPasswordPage),
  resetPassword: screen(() => import("@/features/auth/components/reset-password-page"), (m) => m.ResetPasswordPage),
  failedSubscription: screen(() => import("./routes/failed-subscription"), (m) => m.FailedSubscriptionPage),
  instagramCallback: screen(() => import("@/features/instagram/components/instagram-callback-page"), (m) => m.InstagramCallbackPage),
  checkout: screen(() => import("@/features/billing/components/checkout-page"), (m) => m.CheckoutPage),
  invoice: screen(() => import("@/features/billing/components/invoice-page"), (m) => m.InvoicePage),
  accessDenied: screen(() => import("./routes/access-denied"), (m) => m.AccessDeniedPage),
};

/** Each layout of spec §2, loaded on demand (the app shell is not needed by /login). */
export const LAYOUTS: Record<Exclude<LayoutName, "none">, LazyRoute> = {
  default: screen(() => import("./layouts/default-layout"), (m) => m.DefaultLayout),
  broadcasts: screen(() => import("./layouts/section-layout"), (m) => m.BroadcastsLayout),
  registers: screen(() => import("./layouts/section-layout"), (m) => m.RegistersLayout),
  settings: screen(() => import("./layouts/section-layout"), (m) => m.SettingsLayout),
  franchises: screen(() => import("./layouts/section-layout"), (m) => m.FranchisesLayout),
  auth: screen(() => import("./layouts/auth-layout"), (m) => m.AuthLayout),
  checkout: screen(() => import("./layouts/plain-layouts"), (m) => m.CheckoutLayout),
  callback: screen(() => import("./layouts/plain-layouts"), (m) => m.CallbackLayout),
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
    else children.push({ lazy: LAYOUTS[layout], children: routes });
  }
  // The sandbox simulator of DESIGN.md "Channels": a phone page outside the spec's table (no
  // login, no guards, no app layout); it authenticates with its own device token.
  children.push({ path: "/sandbox/phone", lazy: screen(() => import("@/features/sandbox-phone/components/sandbox-phone-page"), (m) => m.SandboxPhonePage) });
  // The public API's reference (issue 11): public like the OpenAPI document it renders, no app layout.
  children.push({ path: "/docs/api", lazy: screen(() => import("@/features/api-docs/components/api-docs-page"), (m) => m.ApiDocsPage) });
  // The Admin area of platform administrators (DESIGN.md "Platform administration"; issue 12),
  // outside the spec's table: in the app shell, signed-in only; the screen itself and the API
  // refuse anyone who is not a platform administrator. Later issues add plans and franchises here.
  children.push({
    lazy: LAYOUTS.default,
    children: [
      {
        path: "/admin/announcements",
        loader: guardLoader("/admin/announcements", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-announcements-page"), (m) => m.AdminAnnouncementsPage),
      },
      {
        path: "/admin/plans",
        loader: guardLoader("/admin/plans", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-plans-page"), (m) => m.AdminPlansPage),
      },
      {
        path: "/admin/coupons",
        loader: guardLoader("/admin/coupons", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-coupons-page"), (m) => m.AdminCouponsPage),
      },
      {
        path: "/admin/franchises",
        loader: guardLoader("/admin/franchises", ["is-auth"]),
        lazy: screen(() => import("@/features/admin/components/admin-franchises-page"), (m) => m.AdminFranchisesPage),
      },
    ],
  });
  children.push({ path: "*", element: <NotFoundPage /> });
  return [
    {
      id: "root",
      errorElement: <RootErrorPage />,
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
