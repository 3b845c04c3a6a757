import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { CircleAlert, CircleCheck, Download, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/error-messages";
import { notifySuccess } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { contactKeys } from "../api/contacts-api";
import { useJob } from "../hooks/use-job";
import { importedCount, isJobFinished, jobFailureMessage } from "../lib/import-mapping";
import { JobProgressBar } from "./job-progress";

/**
 * A running or finished import or export on the contacts page (spec §4 "Contact import and export:
 * show progress"): the live progress bar, then the outcome: an import's counts ('contacts imported'
 * toast once) and its refused-rows report, an export's download link (a signed URL), or why the
 * job failed. Stays until dismissed.
 */
export function JobPanel({ jobId, onDismiss }: { jobId: string; onDismiss: () => void }) {
  const { t, i18n } = useLingui();
  const failureText = (failed: { errorCode: string | null; errorMessage: string | null }) => {
    const known = jobFailureMessage(failed);
    return known ? i18n._(known) : (failed.errorMessage ?? t`An error occurred. Try again.`);
  };
  const queryClient = useQueryClient();
  const job = useJob(jobId);
  const data = job.data;
  const announced = useRef(false);

  useEffect(() => {
    if (!data || !isJobFinished(data) || announced.current) return;
    announced.current = true;
    if (data.type !== "import") return;
    void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    if (data.status === "done") {
      notifySuccess("contactsImported", countText(i18n, data.errors ? "importedRefused" : "imported", importedCount(data), { refused: data.errors }));
    }
  }, [data, i18n, queryClient, t]);

  const isImport = data?.type === "import";
  const title = !data
    ? t`Loading…`
    : data.status === "failed"
      ? isImport
        ? t`The import failed.`
        : t`The export failed.`
      : data.status === "done"
        ? isImport
          ? t`Contacts imported.`
          : t`Export ready.`
        : isImport
          ? t`Importing contacts…`
          : t`Exporting contacts…`;

  return (
    <Card role="region" aria-label={isImport ? t`Contact import` : t`Contact export`} className="grid gap-3 p-4">
      <div className="flex items-start justify-between gap-3">
        <p className={cn("flex items-center gap-2 text-sm font-medium", data?.status === "failed" && "text-destructive")}>
          {!data || !isJobFinished(data) ? <Spinner className="size-4" /> : data.status === "done" ? <CircleCheck className="size-4 text-green-600 dark:text-green-400" aria-hidden /> : <CircleAlert className="size-4" aria-hidden />}
          {title}
        </p>
        <Button variant="ghost" size="icon" className="size-7" onClick={onDismiss} aria-label={t`Dismiss`}>
          <X />
        </Button>
      </div>
      {job.isError && !data ? <p className="text-sm text-destructive">{i18n._(errorMessage(job.error))}</p> : null}
      {data && !isJobFinished(data) ? <JobProgressBar job={data} label={isImport ? t`Import progress` : t`Export progress`} /> : null}
      {data?.status === "failed" ? <p className="text-sm text-muted-foreground">{failureText(data)}</p> : null}
      {data?.status === "done" ? (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-muted-foreground">
            {isImport ? countText(i18n, data.errors ? "importedRefused" : "imported", importedCount(data), { refused: data.errors }) : countText(i18n, "contactsExported", data.processed)}
          </span>
          {isImport && data.reportUrl ? (
            <Button asChild variant="outline" size="sm">
              <a href={data.reportUrl} download>
                <Download />
                {t`Download the refused rows`}
              </a>
            </Button>
          ) : null}
          {!isImport ? (
            data.resultUrl ? (
              <Button asChild size="sm">
                <a href={data.resultUrl} download>
                  <Download />
                  {t`Download export`}
                </a>
              </Button>
            ) : (
              <Spinner className="size-4" label={t`Preparing the download…`} />
            )
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
