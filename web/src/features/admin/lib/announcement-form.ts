/**
 * The announcement form's values and their conversion to the API's input: dates are edited as
 * local `datetime-local` strings ("2026-11-24T09:00", the admin's own time zone) and sent as ms UTC.
 */
import { z } from "zod";
import { ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX, type AdminAnnouncementAnswer, type AnnouncementInput } from "../../../../../schema/validation/announcements";

/** The form: every field a string, as the inputs hold them. */
export const announcementForm = z
  .object({
    title: z.string().trim().min(1, { error: "required" }).max(ANNOUNCEMENT_TITLE_MAX, { error: "too_long" }),
    body: z.string().trim().min(1, { error: "required" }).max(ANNOUNCEMENT_BODY_MAX, { error: "too_long" }),
    code: z.string().trim().max(64, { error: "too_long" }).regex(/^[a-z0-9_-]*$/, { error: "invalid_slug" }),
    url: z.string().trim().max(2000, { error: "too_long" }).regex(/^(https?:\/\/\S+)?$/i, { error: "invalid_url" }),
    startsAt: z.string(),
    endsAt: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.startsAt && v.endsAt && toInstant(v.endsAt)! <= toInstant(v.startsAt)!) ctx.addIssue({ code: "custom", path: ["endsAt"], message: "before_start" });
  });

export type AnnouncementFormValues = z.infer<typeof announcementForm>;

/** ms UTC of a `datetime-local` value in the browser's time zone; null when empty. */
export function toInstant(local: string): number | null {
  if (!local) return null;
  const t = new Date(local).getTime();
  return Number.isFinite(t) ? t : null;
}

/** The `datetime-local` value of an instant, in the browser's time zone; "" for null. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return "";
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form's starting values (empty, or those of `announcement`). */
export function formValuesOf(announcement: AdminAnnouncementAnswer | null): AnnouncementFormValues {
  return {
    title: announcement?.title ?? "",
    body: announcement?.body ?? "",
    code: announcement?.code ?? "",
    url: announcement?.url ?? "",
    startsAt: toLocalInput(announcement?.startsAt ?? null),
    endsAt: toLocalInput(announcement?.endsAt ?? null),
  };
}

/** The API input of the form's values (blank code and link: none; audience: every company). */
export function inputOf(values: AnnouncementFormValues): AnnouncementInput {
  return {
    title: values.title,
    body: values.body,
    code: values.code || null,
    url: values.url || null,
    startsAt: toInstant(values.startsAt),
    endsAt: toInstant(values.endsAt),
    audience: "all",
  };
}
