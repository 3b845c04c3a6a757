import { Link, useLocation } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { BareLayout } from "../layouts/plain-layouts";

/** 404 page (spec §8: "Unmatched routes give 404 Page Not Found with the path"). */
export function NotFoundPage() {
  const { t } = useLingui();
  const location = useLocation();
  const path = `${location.pathname}${location.search}${location.hash}`;
  return (
    <BareLayout>
      <Card className="w-full max-w-lg">
        <EmptyState
          icon={<SearchX />}
          title={
            <>
              <span className="mb-1 block text-sm font-medium text-muted-foreground">404</span>
              {t`Page Not Found`}
            </>
          }
          description={
            <>
              {t`There is no page at this address:`} <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs break-all text-foreground">{path}</code>
            </>
          }
          action={
            <Button asChild>
              <Link to="/">{t`Go to the home page`}</Link>
            </Button>
          }
        />
      </Card>
    </BareLayout>
  );
}
