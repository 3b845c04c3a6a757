/**
 * The ad or post a customer came from (WhatsApp click-to-WhatsApp `referral`; schema/realtime.ts
 * ReferralAnswer), shown in the ticket's contact panel and on the contact's page. Only text and a
 * link to the ad: Meta's image URLs are not loaded (they expire and would be third-party requests).
 */
import { useLingui } from "@lingui/react/macro";
import { ExternalLink, Megaphone } from "lucide-react";
import type { ReferralAnswer } from "../../../schema/realtime";

/** An http(s) URL, or null (a referral's URL is the provider's text: never a `javascript:` link). */
function safeUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The referral's headline, body, kind and a link to the ad; nothing when `referral` is null. */
export function ReferralCard({ referral }: { referral: ReferralAnswer | null }) {
  const { t } = useLingui();
  if (!referral) return null;
  const href = safeUrl(referral.sourceUrl);
  const adId = referral.sourceId;
  const kind = referral.sourceType === "ad" ? t`Ad` : referral.sourceType === "post" ? t`Post` : referral.sourceType;
  return (
    <section className="grid gap-1 rounded-md border bg-muted/40 p-3 text-sm" aria-label={t`Came from an ad`}>
      <p className="flex items-center gap-1.5 text-xs font-semibold text-muted-foreground">
        <Megaphone className="size-3.5" aria-hidden />
        {t`Came from an ad`}
        {kind ? <span className="font-normal">· {kind}</span> : null}
      </p>
      {referral.headline ? <p className="font-medium break-words">{referral.headline}</p> : null}
      {referral.body ? <p className="text-xs break-words whitespace-pre-wrap text-muted-foreground">{referral.body}</p> : null}
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex items-center gap-1 text-xs text-primary underline-offset-2 hover:underline">
          <ExternalLink className="size-3.5" aria-hidden />
          {t`Open the ad`}
        </a>
      ) : null}
      {adId ? <p className="font-mono text-[11px] text-muted-foreground">{t`Ad id: ${adId}`}</p> : null}
    </section>
  );
}
