/**
 * The root route's frame: the app's pages render inside react-query's provider (loaded as its own
 * chunk), the auth pages (the "auth" layout route) without it, so /login does not download
 * react-query (issue 9 "Load only what a screen needs"). Moving between the two areas always
 * changes the layout, so the switch of wrapper remounts nothing that would have stayed.
 */
import { lazy, Suspense, type ReactNode } from "react";
import { Outlet, useMatches } from "react-router";
import { Spinner } from "@/components/ui/spinner";
import { loadCatalogs } from "@/lib/i18n";

/** Route id of the auth layout (router.tsx). */
export const AUTH_ROUTE_ID = "auth";

const RootErrorPage = lazy(() =>
  Promise.all([import("./routes/root-error"), loadCatalogs(["errors"])]).then(([module]) => ({ default: module.RootErrorPage })),
);

const AppQueryProvider = lazy(() => import("./query-provider").then((module) => ({ default: module.AppQueryProvider })));

/** The page-level wait while the query chunk loads. */
function PageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-6 text-muted-foreground" />
    </div>
  );
}

/** `children` inside react-query's provider, once its chunk is in. */
export function WithQueries({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <AppQueryProvider>{children}</AppQueryProvider>
    </Suspense>
  );
}

/** The matched page: inside react-query's provider unless it is an auth page. */
export function RootFrame() {
  const inAuthArea = useMatches().some((match) => match.id === AUTH_ROUTE_ID);
  if (inAuthArea) return <Outlet />;
  return (
    <WithQueries>
      <Outlet />
    </WithQueries>
  );
}

/**
 * The router's error screen (routes/root-error.tsx), loaded when shown with the error table's
 * catalog: it may show the
 * not-in-company screen, which reads through react-query, hence inside the query provider.
 */
export function RootErrorScreen() {
  return (
    <WithQueries>
      <RootErrorPage />
    </WithQueries>
  );
}
