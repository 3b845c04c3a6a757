/**
 * The data router: spec §2's route table (route-table.ts) grouped under its layouts, each route's
 * guards as its loader, the not-in-company / error screen at the root, and a catch-all 404 page
 * that shows the full path (spec §8).
 */
import type { ReactElement } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { Spinner } from "@/components/ui/spinner";
import { setRouterNavigate } from "@/lib/session";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { LoginPage } from "@/features/auth/components/login-page";
import { RegisterPage } from "@/features/auth/components/register-page";
import { ForgotPasswordPage } from "@/features/auth/components/forgot-password-page";
import { ResetPasswordPage } from "@/features/auth/components/reset-password-page";
import { MyAccountSettingsPage } from "@/features/settings/components/my-account-page";
import { CompanySettingsPage } from "@/features/settings/components/company-page";
import { SubscriptionSettingsPage } from "@/features/settings/components/subscription-page";
import { IntegrationSettingsPage } from "@/features/settings/components/integration-page";
import { OperatingHoursSettingsPage } from "@/features/settings/components/operating-hours-page";
import { RolesSettingsPage } from "@/features/settings/components/roles-page";
import { MembersSettingsPage } from "@/features/settings/components/members-page";
import { DataCleanupSettingsPage } from "@/features/settings/components/data-cleanup-page";
import { ConnectionsPage } from "@/features/connections/components/connections-page";
import { SandboxPhonePage } from "@/features/sandbox-phone/components/sandbox-phone-page";
import { ChatsPage } from "@/features/chats/components/chats-page";
import { CrmPage } from "@/features/crm/components/crm-page";
import { QuickMessagesPage } from "@/features/quick-messages/components/quick-messages-page";
import { ContactsPage } from "@/features/contacts/components/contacts-page";
import { CustomFieldsPage } from "@/features/registers/components/custom-fields-page";
import { TagsPage } from "@/features/registers/components/tags-page";
import { FoldersPage } from "@/features/flows/components/folders-page";
import { FlowEditorPage } from "@/features/flows/components/editor/flow-editor-page";
import { ShareFlowPage } from "@/features/flows/components/share-flow-page";
import { KeywordsPage } from "@/features/keywords/components/keywords-page";
import { guardLoader } from "./guard-loader";
import { ROUTES, type LayoutName, type ScreenKey } from "./route-table";
import { DefaultLayout } from "./layouts/default-layout";
import { AuthLayout } from "./layouts/auth-layout";
import { BroadcastsLayout, FranchisesLayout, RegistersLayout, SettingsLayout } from "./layouts/section-layout";
import { CallbackLayout, CheckoutLayout } from "./layouts/plain-layouts";
import { beingBuilt } from "./routes/being-built";
import { NotFoundPage } from "./routes/not-found";
import { AccessDeniedPage } from "./routes/access-denied";
import { FailedSubscriptionPage } from "./routes/failed-subscription";
import { RootErrorPage } from "./routes/root-error";

const SCREENS: Record<ScreenKey, ReactElement> = {
  dashboard: <DashboardPage />,
  chats: <ChatsPage />,
  contacts: <ContactsPage />,
  crm: <CrmPage />,
  internalChats: beingBuilt("internalChats"),
  keywords: <KeywordsPage />,
  quickMessages: <QuickMessagesPage />,
  connections: <ConnectionsPage />,
  flowBuilder: <FlowEditorPage />,
  shareFlow: <ShareFlowPage />,
  folders: <FoldersPage />,
  shippingCycles: beingBuilt("shippingCycles"),
  shippingCycle: beingBuilt("shippingCycle"),
  webhooks: beingBuilt("webhooks"),
  webhook: beingBuilt("webhook"),
  broadcasts: beingBuilt("broadcasts", false),
  broadcastHistory: beingBuilt("broadcastHistory", false),
  customFields: <CustomFieldsPage />,
  tags: <TagsPage />,
  settingsCompany: <CompanySettingsPage />,
  settingsDataCleanup: <DataCleanupSettingsPage />,
  settingsIntegration: <IntegrationSettingsPage />,
  settingsMembers: <MembersSettingsPage />,
  settingsOperatingHours: <OperatingHoursSettingsPage />,
  settingsRoles: <RolesSettingsPage />,
  settingsSubscription: <SubscriptionSettingsPage />,
  settingsMyAccount: <MyAccountSettingsPage />,
  franchiseSettings: beingBuilt("franchiseSettings", false),
  franchiseCompanies: beingBuilt("franchiseCompanies", false),
  franchiseEmail: beingBuilt("franchiseEmail", false),
  franchiseIntegration: beingBuilt("franchiseIntegration", false),
  franchisePayment: beingBuilt("franchisePayment", false),
  franchiseRoles: beingBuilt("franchiseRoles", false),
  login: <LoginPage />,
  register: <RegisterPage />,
  forgotPassword: <ForgotPasswordPage />,
  resetPassword: <ResetPasswordPage />,
  failedSubscription: <FailedSubscriptionPage />,
  instagramCallback: beingBuilt("instagramCallback"),
  checkout: beingBuilt("checkout"),
  invoice: beingBuilt("invoice"),
  accessDenied: <AccessDeniedPage />,
};

const LAYOUTS: Record<Exclude<LayoutName, "none">, ReactElement> = {
  default: <DefaultLayout />,
  broadcasts: <BroadcastsLayout />,
  registers: <RegistersLayout />,
  settings: <SettingsLayout />,
  franchises: <FranchisesLayout />,
  auth: <AuthLayout />,
  checkout: <CheckoutLayout />,
  callback: <CallbackLayout />,
};

/** The route objects: one pathless layout route per layout, its pages as children. */
export function buildRoutes(): RouteObject[] {
  const layoutRoutes = new Map<LayoutName, RouteObject[]>();
  for (const route of ROUTES) {
    const child: RouteObject = { path: route.path, loader: guardLoader(route.path, route.guards), element: SCREENS[route.screen] };
    const list = layoutRoutes.get(route.layout) ?? [];
    list.push(child);
    layoutRoutes.set(route.layout, list);
  }
  const children: RouteObject[] = [];
  for (const [layout, routes] of layoutRoutes) {
    if (layout === "none") children.push(...routes);
    else children.push({ element: LAYOUTS[layout], children: routes });
  }
  // The sandbox simulator of DESIGN.md "Channels": a phone page outside the spec's table (no
  // login, no guards, no app layout); it authenticates with its own device token.
  children.push({ path: "/sandbox/phone", element: <SandboxPhonePage /> });
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

/** The app's router; it also becomes the navigation used by the session (login redirects). */
export const router = createBrowserRouter(buildRoutes());
setRouterNavigate((path) => void router.navigate(path));
