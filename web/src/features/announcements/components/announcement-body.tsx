import { Fragment } from "react";
import { linkParts } from "../../../../../schema/validation/announcements";

/**
 * An announcement's plain-text body: http(s) addresses become links (new tab, no referrer), the
 * rest is text. Never HTML (issue 12: "plain text with links").
 */
export function AnnouncementBody({ text, className }: { text: string; className?: string }) {
  return (
    <p className={className ? `whitespace-pre-wrap break-words ${className}` : "whitespace-pre-wrap break-words"}>
      {linkParts(text).map((part, index) =>
        part.kind === "link" ? (
          <a key={index} href={part.value} target="_blank" rel="noreferrer noopener" className="text-primary underline underline-offset-4">
            {part.value}
          </a>
        ) : (
          <Fragment key={index}>{part.value}</Fragment>
        ),
      )}
    </p>
  );
}
