/**
 * The slide-over form of an announcement (Admin area; issue 12): title, body (plain text, links
 * become links), where it shows (`code`: blank for everywhere and the bell, `dashboard` for the
 * dashboard), an optional link, and the dates it is shown between (the admin's local time).
 * Server field errors land under their fields.
 */
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { DateTimeField } from "@/components/ui/date-picker";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import { notifySuccess } from "@/lib/notify";
import { ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX, type AdminAnnouncementAnswer } from "../../../../../schema/validation/announcements";
import { adminAnnouncementKeys, createAnnouncement, updateAnnouncement } from "../api/admin-announcements-api";
import { announcementForm, formValuesOf, inputOf, type AnnouncementFormValues } from "../lib/announcement-form";

/** What the sheet edits: a new announcement or an existing one. */
export type AnnouncementSheetTarget = { kind: "new" } | { kind: "edit"; announcement: AdminAnnouncementAnswer };

function AnnouncementForm({ target, onDone }: { target: AnnouncementSheetTarget; onDone: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const existing = target.kind === "edit" ? target.announcement : null;
  const form = useForm<AnnouncementFormValues>({ resolver: zodResolver(announcementForm), defaultValues: formValuesOf(existing) });
  const { errors } = form.formState;
  const save = useMutation({
    mutationFn: (values: AnnouncementFormValues) => (existing ? updateAnnouncement(existing.id, inputOf(values)) : createAnnouncement(inputOf(values))),
    onSuccess: async () => {
      notifySuccess(existing ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: adminAnnouncementKeys.all });
      await queryClient.invalidateQueries({ queryKey: ["announcements"] });
    },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["title", "body", "code", "url", "startsAt", "endsAt"]);
    }
  });
  const dashboardCode = "dashboard";
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={existing ? t`Save changes` : t`Publish announcement`}>
      <FormField label={t`Title`} error={errors.title?.message}>
        <Input autoFocus maxLength={ANNOUNCEMENT_TITLE_MAX} {...form.register("title")} />
      </FormField>
      <FormField label={t`Message`} error={errors.body?.message} hint={t`Plain text. Addresses starting with http:// or https:// become links.`}>
        <Textarea rows={6} maxLength={ANNOUNCEMENT_BODY_MAX} {...form.register("body")} />
      </FormField>
      <FormField label={t`Where it shows`} error={errors.code?.message} hint={t`Leave blank to show it everywhere and in the notifications bell; ${dashboardCode} shows it on the dashboard only.`}>
        <Input placeholder={dashboardCode} {...form.register("code")} />
      </FormField>
      <FormField label={t`Link (optional)`} error={errors.url?.message}>
        <Input type="url" placeholder="https://" {...form.register("url")} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t`Shown from`} error={errors.startsAt?.message} hint={t`Blank: from now.`}>
          <Controller control={form.control} name="startsAt" render={({ field }) => <DateTimeField value={field.value ?? ""} onChange={field.onChange} aria-label={t`Shown from`} />} />
        </FormField>
        <FormField label={t`Shown until`} error={errors.endsAt?.message} hint={t`Blank: until deleted.`}>
          <Controller control={form.control} name="endsAt" render={({ field }) => <DateTimeField value={field.value ?? ""} onChange={field.onChange} aria-label={t`Shown until`} />} />
        </FormField>
      </div>
      <p className="text-xs text-muted-foreground">{t`Audience: every company.`}</p>
    </FormSheetForm>
  );
}

/** The announcement slide-over. */
export function AnnouncementSheet({ target, onClose }: { target: AnnouncementSheetTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const existing = target?.kind === "edit" ? target.announcement : null;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={existing ? t`Edit announcement` : t`New announcement`} description={t`Members of every company see it until they mark it as seen.`}>
      {target ? <AnnouncementForm key={existing?.id ?? "new"} target={target} onDone={onClose} /> : null}
    </FormSheet>
  );
}
