import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { ShieldX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { BareLayout } from "../layouts/plain-layouts";

/** /access-denied (spec §6: 'You do not have permission to access this page!'). */
export function AccessDeniedPage() {
  const { t } = useLingui();
  return (
    <BareLayout>
      <Card className="w-full max-w-lg">
        <EmptyState
          icon={<ShieldX />}
          title={t`You do not have permission to access this page!`}
          description={t`Ask an administrator of your company for access.`}
          action={
            <Button asChild>
              <Link to="/settings">{t`Go to my account`}</Link>
            </Button>
          }
        />
      </Card>
    </BareLayout>
  );
}
