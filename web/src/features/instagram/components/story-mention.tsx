/**
 * A customer's story mention in a ticket (issue 15). Meta forbids copying the story, so the ticket
 * keeps only its CDN link (`payload.storyMention.url`, with `at`, ms UTC, when it arrived): while
 * the story lives (Instagram keeps stories 24 hours) the bubble links to it; after that it shows a
 * placeholder instead of a dead link.
 */
import { useLingui } from "@lingui/react/macro";
import { AtSign, ExternalLink } from "lucide-react";
import type { Json } from "../../../../../schema/columns";

/** How long Instagram keeps a story (ms). */
export const STORY_LIFETIME_MS = 24 * 3600 * 1000;

/** The story mention a message's payload carries, or null. */
export function storyMentionOf(payload: { [key: string]: Json } | null): { url: string; at: number | null } | null {
  const mention = payload?.storyMention;
  if (typeof mention !== "object" || mention === null || Array.isArray(mention)) return null;
  const url = mention.url;
  const at = mention.at;
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) return null;
  return { url, at: typeof at === "number" ? at : null };
}

export function StoryMention({ mention, now = Date.now() }: { mention: { url: string; at: number | null }; now?: number }) {
  const { t } = useLingui();
  const expired = mention.at !== null && now - mention.at > STORY_LIFETIME_MS;
  return (
    <div className="grid gap-1 rounded-md border border-current/15 p-2" data-testid="story-mention">
      <span className="flex items-center gap-1.5 text-sm font-medium">
        <AtSign className="size-4" aria-hidden />
        {t`Mentioned you in a story`}
      </span>
      {expired ? (
        <span className="text-xs opacity-75">{t`The story is no longer available (Instagram keeps stories for 24 hours).`}</span>
      ) : (
        <a href={mention.url} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex items-center gap-1 text-sm underline underline-offset-2 hover:opacity-80">
          <ExternalLink className="size-3.5" aria-hidden />
          {t`Open the story`}
        </a>
      )}
    </div>
  );
}
