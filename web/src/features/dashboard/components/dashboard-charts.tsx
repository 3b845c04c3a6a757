/**
 * The dashboard's charts (Recharts): tickets per day split into receptive and active, new contacts
 * per day, and the daily medians of first response and resolution (minutes). Colours are the
 * theme's CSS variables (`--chart-*`, `--border`, `--muted-foreground`), so they follow light and
 * dark; each chart has a text summary for screen readers.
 */
import type { ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { DashboardDay } from "../../../../../schema/validation/dashboard";
import { shortDate, toMinutes } from "../lib/dashboard-format";

const AXIS = { stroke: "var(--muted-foreground)", fontSize: 12, tickLine: false, axisLine: false } as const;
const TOOLTIP = {
  contentStyle: { background: "var(--popover)", color: "var(--popover-foreground)", border: "1px solid var(--border)", borderRadius: "var(--radius)", fontSize: 12 },
  labelStyle: { color: "var(--popover-foreground)" },
  cursor: { fill: "var(--accent)", opacity: 0.6 },
} as const;

function ChartCard({ title, description, summary, children }: { title: string; description: string; summary: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-base">
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="sr-only">{summary}</p>
        <div className="h-56 w-full" aria-hidden>
          {children}
        </div>
      </CardContent>
    </Card>
  );
}

/** The three charts of the range's `series`. */
export function DashboardCharts({ series }: { series: DashboardDay[] }) {
  const { t, i18n } = useLingui();
  const data = series.map((day) => ({
    ...day,
    label: shortDate(day.date, i18n.locale),
    firstResponseMin: toMinutes(day.firstResponseMedianMs),
    resolutionMin: toMinutes(day.resolutionMedianMs),
  }));
  const receptive = series.reduce((n, d) => n + d.receptive, 0);
  const active = series.reduce((n, d) => n + d.active, 0);
  const contacts = series.reduce((n, d) => n + d.newContacts, 0);
  const receptiveLabel = t`Receptive`;
  const activeLabel = t({ message: "Active", context: "attendances started by the company" });
  const newContactsLabel = t`New contacts`;
  const firstResponseLabel = t`First response (median, min)`;
  const resolutionLabel = t`Resolution (median, min)`;
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <ChartCard
        title={t`Attendances per day`}
        description={t`Receptive: the customer started the conversation. Active: your company did.`}
        summary={t`${receptive} receptive and ${active} active attendances in the period.`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis dataKey="label" {...AXIS} minTickGap={16} />
            <YAxis allowDecimals={false} {...AXIS} />
            <Tooltip {...TOOLTIP} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="receptive" name={receptiveLabel} stackId="tickets" fill="var(--chart-1)" radius={[0, 0, 0, 0]} />
            <Bar dataKey="active" name={activeLabel} stackId="tickets" fill="var(--chart-2)" radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard title={t`New contacts per day`} description={t`Contacts added by messages, your team, imports and integrations.`} summary={t`${contacts} new contacts in the period.`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis dataKey="label" {...AXIS} minTickGap={16} />
            <YAxis allowDecimals={false} {...AXIS} />
            <Tooltip {...TOOLTIP} />
            <Bar dataKey="newContacts" name={newContactsLabel} fill="var(--chart-3)" radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <div className="xl:col-span-2">
        <ChartCard
          title={t`Response times per day`}
          description={t`Median time to the first answer of your team and to the close, in minutes.`}
          summary={t`Daily medians of first response and resolution times.`}
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid vertical={false} stroke="var(--border)" />
              <XAxis dataKey="label" {...AXIS} minTickGap={16} />
              <YAxis {...AXIS} />
              <Tooltip {...TOOLTIP} cursor={{ stroke: "var(--border)" }} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Line type="monotone" dataKey="firstResponseMin" name={firstResponseLabel} stroke="var(--chart-1)" strokeWidth={2} dot={false} connectNulls />
              <Line type="monotone" dataKey="resolutionMin" name={resolutionLabel} stroke="var(--chart-2)" strokeWidth={2} dot={false} connectNulls />
            </LineChart>
          </ResponsiveContainer>
        </ChartCard>
      </div>
    </div>
  );
}
