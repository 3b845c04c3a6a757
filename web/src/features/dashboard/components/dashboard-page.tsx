/**
 * The dashboard at / (spec §2 "Dashboard"; issue 12): the welcome line, the announcements for
 * `dashboard` (each can be marked seen), a date range picker, the four metric cards of the spec
 * (total attendances with the active/receptive labels, total contacts, new contacts, custom events),
 * first response and resolution times (median and 90th percentile), the custom events by name (with
 * its empty state) and the charts. Figures come from GET /api/dashboard for the range (kept in the
 * URL: `?from=&to=`, local days of the company); loading, error and empty states included.
 */
import { lazy, Suspense, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { BarChart3, Clock, Headset, Sparkles, TimerReset, UserPlus, Users } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe } from "@/features/session/hooks/use-session";
import { AnnouncementsList } from "@/features/announcements/components/announcements-list";
import { isoDateSchema } from "../../../../../schema/validation/dashboard";
import { dashboardQuery } from "../api/dashboard-api";
import { formatDuration, lastDays } from "../lib/dashboard-format";
import { DateRangePicker, type Range } from "./date-range-picker";

// Recharts is the heaviest part of the screen: it loads after the figures.
const DashboardCharts = lazy(() => import("./dashboard-charts").then((m) => ({ default: m.DashboardCharts })));

function MetricCard({ id, title, icon, value, detail, loading }: { id: string; title: string; icon: ReactNode; value: string; detail?: ReactNode; loading: boolean }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <span className="text-muted-foreground [&_svg]:size-4" aria-hidden>
          {icon}
        </span>
      </CardHeader>
      <CardContent className="grid gap-1">
        {loading ? <Skeleton className="h-8 w-20" /> : <p className="text-3xl font-semibold tabular-nums" data-testid={`metric-${id}`}>{value}</p>}
        {detail ? <div className="text-xs text-muted-foreground">{detail}</div> : null}
      </CardContent>
    </Card>
  );
}

/** The range of the URL (`?from=&to=`), or null: the API's default (the last 30 days in the company's time zone). */
function useRange(): [Range | null, (next: Range) => void] {
  const [params, setParams] = useSearchParams();
  const from = isoDateSchema.safeParse(params.get("from"));
  const to = isoDateSchema.safeParse(params.get("to"));
  const range = from.success && to.success && from.data <= to.data ? { from: from.data, to: to.data } : null;
  return [range, (next) => setParams({ from: next.from, to: next.to }, { replace: true })];
}

export function DashboardPage() {
  const { t, i18n } = useLingui();
  const me = useMe();
  const name = me.data?.name ?? "";
  const [range, setRange] = useRange();
  const figures = useQuery(dashboardQuery(range));
  const data = figures.data;
  const shown = range ?? (data ? { from: data.from, to: data.to } : lastDays(new Date(), 30));
  const loading = figures.isPending;
  const number = (n: number | undefined) => (n === undefined ? "—" : new Intl.NumberFormat(i18n.locale).format(n));
  const eventsTotal = data?.customEvents.reduce((n, e) => n + e.count, 0);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          {me.isPending ? <Skeleton className="h-8 w-64" /> : <h1 className="text-2xl font-semibold tracking-tight">{t`Welcome, ${name}!`}</h1>}
          <p className="text-sm text-muted-foreground">{t`Here is an overview of your company's service.`}</p>
        </div>
        <DateRangePicker value={shown} onChange={setRange} />
      </div>
      <AnnouncementsList code="dashboard" />
      {figures.isError && !data ? (
        <Card>
          <ErrorState title={t`The figures could not be loaded.`} onRetry={() => void figures.refetch()} />
        </Card>
      ) : (
        <>
          <section aria-label={t`Metrics`} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy={loading || figures.isFetching}>
            <MetricCard
              id="attendances"
              title={t`Total attendances`}
              icon={<Headset />}
              value={number(data?.attendances)}
              loading={loading}
              detail={
                data ? (
                  <span className="flex flex-wrap gap-1.5">
                    <Badge variant="secondary">{t`Receptive: ${number(data.receptive)}`}</Badge>
                    <Badge variant="outline">{t`Active: ${number(data.active)}`}</Badge>
                  </span>
                ) : null
              }
            />
            <MetricCard id="contacts" title={t`Total contacts`} icon={<Users />} value={number(data?.contacts)} loading={loading} />
            <MetricCard id="new-contacts" title={t`New contacts`} icon={<UserPlus />} value={number(data?.newContacts)} loading={loading} />
            <MetricCard id="custom-events" title={t`Custom events`} icon={<Sparkles />} value={number(eventsTotal)} loading={loading} />
          </section>
          <section aria-label={t`Response times`} className="grid gap-4 sm:grid-cols-2">
            <MetricCard
              id="first-response"
              title={t`First response`}
              icon={<Clock />}
              value={formatDuration(data?.firstResponse.medianMs ?? null, i18n.locale)}
              loading={loading}
              detail={data ? (data.firstResponse.count ? t`Median of ${number(data.firstResponse.count)} · 90% within ${formatDuration(data.firstResponse.p90Ms, i18n.locale)}` : t`None in the period.`) : null}
            />
            <MetricCard
              id="resolution"
              title={t`Resolution`}
              icon={<TimerReset />}
              value={formatDuration(data?.resolution.medianMs ?? null, i18n.locale)}
              loading={loading}
              detail={data ? (data.resolution.count ? t`Median of ${number(data.resolution.count)} · 90% within ${formatDuration(data.resolution.p90Ms, i18n.locale)}` : t`None in the period.`) : null}
            />
          </section>
          <Card>
            <CardHeader>
              <CardTitle as="h2">{t`Custom events`}</CardTitle>
            </CardHeader>
            {loading ? (
              <CardContent className="grid gap-2">
                <Skeleton className="h-6" />
                <Skeleton className="h-6" />
              </CardContent>
            ) : data?.customEvents.length ? (
              <CardContent>
                <ul className="grid gap-2" aria-label={t`Custom events`}>
                  {data.customEvents.map((event) => (
                    <li key={event.name} className="flex items-center justify-between gap-3 rounded-md border px-3 py-2 text-sm">
                      <span className="truncate font-medium">{event.name}</span>
                      <span className="tabular-nums text-muted-foreground">{number(event.count)}</span>
                    </li>
                  ))}
                </ul>
              </CardContent>
            ) : (
              <EmptyState icon={<BarChart3 />} title={t`No custom events yet`} description={t`Events recorded by your flows will be listed here.`} />
            )}
          </Card>
          {data ? (
            <Suspense fallback={<Skeleton className="h-72" />}>
              <DashboardCharts series={data.series} />
            </Suspense>
          ) : (
            <Skeleton className="h-72" />
          )}
        </>
      )}
    </div>
  );
}
