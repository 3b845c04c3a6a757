import type { ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { BarChart3, Headset, Sparkles, UserPlus, Users } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe } from "@/features/session/hooks/use-session";
import { AnnouncementsList } from "@/features/announcements/components/announcements-list";

function MetricCard({ title, icon }: { title: string; icon: ReactNode }) {
  const { t } = useLingui();
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <span className="text-muted-foreground [&_svg]:size-4" aria-hidden>
          {icon}
        </span>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-muted-foreground">{t`No data yet`}</p>
      </CardContent>
    </Card>
  );
}

/**
 * The dashboard at / (spec §2 "Dashboard"): welcome line, announcements, and the metric cards'
 * honest empty state until metrics arrive in a later issue (no numbers are invented).
 */
export function DashboardPage() {
  const { t } = useLingui();
  const me = useMe();
  const name = me.data?.name ?? "";
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        {me.isPending ? (
          <Skeleton className="h-8 w-64" />
        ) : (
          <h1 className="text-2xl font-semibold tracking-tight">{t`Welcome, ${name}!`}</h1>
        )}
        <p className="text-sm text-muted-foreground">{t`Here is an overview of your company's service.`}</p>
      </div>
      <AnnouncementsList code="dashboard" />
      <section aria-label={t`Metrics`} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title={t`Total attendances`} icon={<Headset />} />
        <MetricCard title={t`Total contacts`} icon={<Users />} />
        <MetricCard title={t`New contacts`} icon={<UserPlus />} />
        <MetricCard title={t`Custom events`} icon={<Sparkles />} />
      </section>
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Custom events`}</CardTitle>
        </CardHeader>
        <EmptyState
          icon={<BarChart3 />}
          title={t`No custom events yet`}
          description={t`Events recorded by your flows will be listed here.`}
        />
      </Card>
    </div>
  );
}
