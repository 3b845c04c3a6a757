/**
 * What Meta says about a WhatsApp Cloud API number (issue 8 §5: the number is proven by its access
 * token, never typed): the display number, the verified business name and the quality rating as a
 * coloured badge (GREEN high, YELLOW medium, RED low, anything else unknown), and the messaging
 * limit (unique users reachable outside a service window per 24 h) with the throughput, as Meta
 * last said them (issue 10).
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { Connection } from "../api/connections-api";

type Rating = "GREEN" | "YELLOW" | "RED" | "UNKNOWN";

const RATING_LABELS: Record<Rating, MessageDescriptor> = {
  GREEN: msg`High quality`,
  YELLOW: msg`Medium quality`,
  RED: msg`Low quality`,
  UNKNOWN: msg`Quality unknown`,
};

const RATING_CLASSES: Record<Rating, string> = {
  GREEN: "border-green-600/30 bg-green-600/10 text-green-800 dark:text-green-400",
  YELLOW: "border-amber-500/40 bg-amber-500/10 text-amber-800 dark:text-amber-400",
  RED: "border-destructive/30 bg-destructive/10 text-destructive",
  UNKNOWN: "border-border bg-muted text-muted-foreground",
};

const DOT_CLASSES: Record<Rating, string> = {
  GREEN: "bg-green-600 dark:bg-green-400",
  YELLOW: "bg-amber-500",
  RED: "bg-destructive",
  UNKNOWN: "bg-muted-foreground",
};

function ratingOf(value: string | null): Rating {
  return value === "GREEN" || value === "YELLOW" || value === "RED" ? value : "UNKNOWN";
}

/** Meta's quality rating of a number as a coloured badge. */
export function QualityBadge({ rating }: { rating: string | null }) {
  const { i18n } = useLingui();
  const value = ratingOf(rating);
  return (
    <Badge variant="outline" data-testid="quality-rating" data-rating={value} className={RATING_CLASSES[value]}>
      <span className={cn("size-1.5 rounded-full", DOT_CLASSES[value])} aria-hidden />
      {i18n._(RATING_LABELS[value])}
    </Badge>
  );
}

/**
 * The messaging limit as a sentence: "2,000 people a day outside a conversation · 80 messages/s",
 * "Unlimited · …", or "Not read yet" before Meta was asked.
 */
function messagingLimitText(connection: Connection, locale: string, t: ReturnType<typeof useLingui>["t"]): string {
  const limit = connection.messagingLimit;
  if (!limit) return t`Not read yet`;
  const speed = t`${new Intl.NumberFormat(locale).format(limit.throughputMps)} messages/s`;
  if (limit.tier === "TIER_UNLIMITED") return `${t`Unlimited`} · ${speed}`;
  if (limit.dailyLimit === null) return speed;
  const people = new Intl.NumberFormat(locale).format(limit.dailyLimit);
  return `${t`${people} people per 24 h outside a conversation`} · ${speed}`;
}

/** The proven number's details as a small definition list (the connection form shows it read-only). */
export function CloudNumberDetails({ connection }: { connection: Connection }) {
  const { t, i18n } = useLingui();
  const display = connection.displayPhoneNumber;
  return (
    <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1.5 text-sm" data-testid="cloud-number-details">
      <dt className="text-muted-foreground">{t`Number`}</dt>
      <dd className="font-medium">{display ?? t`Not verified yet`}</dd>
      <dt className="text-muted-foreground">{t`Verified name`}</dt>
      <dd>{connection.verifiedName ?? "—"}</dd>
      <dt className="text-muted-foreground">{t`Quality`}</dt>
      <dd>
        <QualityBadge rating={connection.qualityRating} />
      </dd>
      <dt className="text-muted-foreground">{t`Messaging limit`}</dt>
      <dd data-testid="messaging-limit">{messagingLimitText(connection, i18n.locale, t)}</dd>
    </dl>
  );
}
