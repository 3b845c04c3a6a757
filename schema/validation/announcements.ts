/**
 * Announcements written by platform administrators (issue 12; spec §7 /me/announcements): the
 * request of POST/PUT /api/admin/announcements and the answers, shared by the worker and the web.
 */
import { z } from "zod";

/** Who sees an announcement; plan and franchise audiences come with billing and franchises. Drizzle-free (the web imports it). */
export const ANNOUNCEMENT_AUDIENCES = ["all"] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];

/** Longest title and body (characters). */
export const ANNOUNCEMENT_TITLE_MAX = 120;
export const ANNOUNCEMENT_BODY_MAX = 2000;

const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), z.string().trim().max(max, { error: "too_long" }).nullable().optional());

/** An instant in ms UTC, or null (open). */
const instant = z.number({ error: "invalid_date" }).int({ error: "invalid_date" }).min(0, { error: "invalid_date" }).max(8.64e15, { error: "invalid_date" }).nullable().optional();

/**
 * POST /api/admin/announcements and PUT /api/admin/announcements/{id}: `title` (1–120) and `body`
 * (1–2000, plain text: links in it are shown as links, never HTML), optional `code` (where it shows:
 * lower-case letters, digits, `_` and `-`, e.g. `dashboard`; none = everywhere and the bell),
 * optional `url` (http or https), `startsAt`/`endsAt` (ms UTC, either open; 400 `endsAt`
 * `before_start` when not after `startsAt`), `audience` (`all`).
 */
export const announcementInput = z
  .object({
    title: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(ANNOUNCEMENT_TITLE_MAX, { error: "too_long" }),
    body: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(ANNOUNCEMENT_BODY_MAX, { error: "too_long" }),
    code: optionalText(64).refine((v) => v == null || /^[a-z0-9_-]+$/.test(v), { error: "invalid_slug" }),
    url: optionalText(2000).refine((v) => v == null || /^https?:\/\/[^\s]+$/i.test(v), { error: "invalid_url" }),
    startsAt: instant,
    endsAt: instant,
    audience: z.enum(ANNOUNCEMENT_AUDIENCES, { error: "invalid_audience" }).default("all"),
  })
  .superRefine((v, ctx) => {
    if (v.startsAt != null && v.endsAt != null && v.endsAt <= v.startsAt) ctx.addIssue({ code: "custom", path: ["endsAt"], message: "before_start" });
  });

export type AnnouncementInput = z.input<typeof announcementInput>;

/** An announcement as the Admin area lists it. Times in ms UTC. */
export type AdminAnnouncementAnswer = {
  id: string;
  title: string;
  body: string;
  code: string | null;
  url: string | null;
  audience: AnnouncementAudience;
  startsAt: number | null;
  endsAt: number | null;
  createdAt: number;
  updatedAt: number;
};

/**
 * Splits plain text into text and link parts (http/https URLs), so a screen renders links as
 * anchors and everything else as text (never HTML). Trailing punctuation stays text.
 */
export function linkParts(text: string): { kind: "text" | "link"; value: string }[] {
  const parts: { kind: "text" | "link"; value: string }[] = [];
  const pattern = /https?:\/\/[^\s<>"']+/gi;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    let url = match[0];
    const trailing = /[.,;:!?)\]]+$/.exec(url)?.[0] ?? "";
    url = url.slice(0, url.length - trailing.length);
    const start = match.index ?? 0;
    if (start > last) parts.push({ kind: "text", value: text.slice(last, start) });
    parts.push({ kind: "link", value: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: "text", value: text.slice(last) });
  return parts;
}
