import { lazy, Suspense } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { TriangleAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { errorMessage } from "@/lib/error-messages";
import { loadCatalogs } from "@/lib/i18n";
import { BareLayout } from "../layouts/plain-layouts";
import { NotFoundPage } from "./not-found";

/** Loaded only when shown, with its features' catalogs: it brings the invites list and the account menu, which /login does not need. */
const NotInCompanyPage = lazy(() =>
  Promise.all([import("./not-in-company"), loadCatalogs(["errors", "invites", "session", "shell"])]).then(([module]) => ({ default: module.NotInCompanyPage })),
);

/**
 * The router's error screen: the not-in-company screen when a guard found no company, the 404
 * page for unmatched routes, otherwise the generic message with a retry.
 */
export function RootErrorPage() {
  const { t, i18n } = useLingui();
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 403 && typeof error.data === "object" && error.data !== null && "code" in error.data && error.data.code === "no_company") {
      return (
        <Suspense fallback={null}>
          <NotInCompanyPage />
        </Suspense>
      );
    }
    if (error.status === 404) return <NotFoundPage />;
  }
  return (
    <BareLayout>
      <Card className="w-full max-w-lg">
        <EmptyState
          icon={<TriangleAlert />}
          title={i18n._(errorMessage(error))}
          description={t`If the problem persists, reload the page.`}
          action={
            <div className="flex gap-2">
              <Button onClick={() => window.location.reload()}>{t`Reload`}</Button>
              <Button variant="outline" asChild>
                <Link to="/">{t`Go to the home page`}</Link>
              </Button>
            </div>
          }
        />
      </Card>
    </BareLayout>
  );
}
