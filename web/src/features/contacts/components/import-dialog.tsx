/**
 * The contact import (spec §2 Contacts "import (.xlsx) … with progress display", §5 "Contact import
 * file must be .xlsx"; issue 4): upload an .xlsx (the extension checked here, the content by the
 * worker), choose the sheet and the header row (the worker starts with the first worksheet that has
 * data and its first row; issue 8 §7), map its columns with the first rows previewed and the
 * suggested mapping preselected (one column must be Phone), start, follow the live progress, and
 * end with the 'contacts imported' toast, the counts and the report of refused rows when there are
 * any. Errors are shown by their code, translated; a failed job shows why.
 */
import { useId, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { CircleAlert, CircleCheck, Download, FileSpreadsheet } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage, fieldErrorMessage } from "@/lib/error-messages";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import type { CustomFieldAnswer, ImportTarget, ImportUploadAnswer } from "../../../../../schema/api-types";
import { previewImportChoice, startImport, uploadImport } from "../api/contacts-api";
import { useJob } from "../hooks/use-job";
import { filterableFields } from "../lib/contact-filter";
import {
  assignTarget,
  hasXlsxExtension,
  importedCount,
  initialMapping,
  isJobFinished,
  jobFailureMessage,
  mappingProblems,
  toStartMapping,
  type ColumnMapping,
} from "../lib/import-mapping";
import { JobProgressBar } from "./job-progress";

type Step = { kind: "upload" } | { kind: "map"; upload: ImportUploadAnswer; mapping: ColumnMapping } | { kind: "run"; jobId: string };

function UploadStep({ onUploaded }: { onUploaded: (answer: ImportUploadAnswer) => void }) {
  const { t, i18n } = useLingui();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError(i18n._(fieldErrorMessage("file_required")));
    if (!hasXlsxExtension(file.name)) return setError(i18n._(fieldErrorMessage("not_xlsx")));
    setPending(true);
    setError(null);
    try {
      onUploaded(await uploadImport(file));
    } catch (failure) {
      const code = isApiError(failure) ? failure.fields.file : undefined;
      setError(i18n._(code ? fieldErrorMessage(code) : errorMessage(failure)));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
      <div className="grid gap-1.5">
        <Label htmlFor={inputId}>{t`Spreadsheet (.xlsx)`}</Label>
        <Input
          id={inputId}
          type="file"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${inputId}-help`}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            setError(chosen && !hasXlsxExtension(chosen.name) ? i18n._(fieldErrorMessage("not_xlsx")) : null);
          }}
          className="h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-2 file:py-1 file:text-xs file:font-medium file:text-secondary-foreground"
        />
        <p id={`${inputId}-help`} className="text-xs text-muted-foreground">
          {t`One contact per row, under a row of column names. Up to 50 MB and 500,000 rows. You choose the sheet and the header row in the next step.`}
        </p>
      </div>
      {error ? (
        <Alert variant="destructive">
          <CircleAlert />
          <p>{error}</p>
        </Alert>
      ) : null}
      <DialogFooter>
        <Button type="submit" disabled={pending || !file}>
          {pending ? <Spinner /> : <FileSpreadsheet />}
          {t`Upload and continue`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The sheet and header-row choice above the mapping: another choice reads the uploaded file again
 * (POST /api/jobs/{id}/preview) and hands the new preview up, which resets the mapping.
 */
function SourceChoice({ upload, onPreview }: { upload: ImportUploadAnswer; onPreview: (answer: ImportUploadAnswer) => void }) {
  const { t, i18n } = useLingui();
  const sheetId = useId();
  const rowId = useId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const candidates = upload.headerCandidates.some((c) => c.row === upload.headerRow)
    ? upload.headerCandidates
    : [{ row: upload.headerRow, text: upload.headers.filter(Boolean).join(" · ") }, ...upload.headerCandidates];

  const choose = async (choice: { sheet?: number; headerRow?: number }) => {
    setPending(true);
    setError(null);
    try {
      onPreview(await previewImportChoice(upload.jobId, choice));
    } catch (failure) {
      const fields = isApiError(failure) ? failure.fields : {};
      const code = fields.sheet ?? fields.headerRow ?? fields.file;
      setError(i18n._(code ? fieldErrorMessage(code) : errorMessage(failure)));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="grid gap-2">
      <div className="grid gap-3 sm:grid-cols-2">
        {upload.sheets.length > 1 ? (
          <div className="grid gap-1.5">
            <Label htmlFor={sheetId}>{t`Sheet`}</Label>
            <NativeSelect id={sheetId} value={String(upload.sheet)} disabled={pending} onChange={(event) => void choose({ sheet: Number(event.target.value) })}>
              {upload.sheets.map((sheet) => (
                <option key={sheet.index} value={String(sheet.index)} disabled={sheet.kind !== "worksheet"}>
                  {sheet.kind === "worksheet" ? sheet.name : t`${sheet.name} (chart, no cells)`}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        <div className="grid gap-1.5">
          <Label htmlFor={rowId}>{t`Row with the column names`}</Label>
          <NativeSelect
            id={rowId}
            value={String(upload.headerRow)}
            disabled={pending}
            onChange={(event) => void choose({ sheet: upload.sheet, headerRow: Number(event.target.value) })}
          >
            {candidates.map((candidate) => {
              const row = i18n.number(candidate.row);
              const text = candidate.text || t`(empty)`;
              return (
                <option key={candidate.row} value={String(candidate.row)}>
                  {t`Row ${row}: ${text}`}
                </option>
              );
            })}
          </NativeSelect>
        </div>
      </div>
      {pending ? (
        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          <Spinner className="size-3" />
          {t`Reading the spreadsheet…`}
        </p>
      ) : null}
      {error ? (
        <Alert variant="destructive">
          <CircleAlert />
          <p>{error}</p>
        </Alert>
      ) : null}
    </div>
  );
}

function MapStep({
  upload,
  mapping,
  fields,
  onChange,
  onPreview,
  onStarted,
}: {
  upload: ImportUploadAnswer;
  mapping: ColumnMapping;
  fields: readonly CustomFieldAnswer[];
  onChange: (mapping: ColumnMapping) => void;
  onPreview: (answer: ImportUploadAnswer) => void;
  onStarted: (jobId: string) => void;
}) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problems = mappingProblems(mapping);
  const targets: { value: ImportTarget; label: string }[] = [
    { value: "ignore", label: t`Do not import` },
    { value: "name", label: t`Name` },
    { value: "phone", label: t`Phone` },
    { value: "email", label: t`Email` },
    { value: "document", label: t`Document` },
    { value: "tags", label: t`Tags` },
    ...filterableFields(fields).map((field): { value: ImportTarget; label: string } => ({ value: `field:${field.id}`, label: fieldDisplayName(field, i18n) })),
  ];
  const columnName = (index: number) => upload.headers[index]?.trim() || t`Column ${index + 1}`;

  const start = async () => {
    setPending(true);
    setError(null);
    try {
      const job = await startImport(upload.jobId, toStartMapping(mapping));
      onStarted(job.id);
    } catch (failure) {
      const code = isApiError(failure) ? failure.fields.mapping : undefined;
      setError(i18n._(code ? fieldErrorMessage(code) : errorMessage(failure)));
      setPending(false);
    }
  };

  return (
    <div className="grid gap-4">
      <SourceChoice upload={upload} onPreview={onPreview} />
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full min-w-max text-sm">
          <caption className="sr-only">{t`Columns of the spreadsheet and where each goes`}</caption>
          <thead className="bg-muted/50">
            <tr>
              <th scope="col" className="w-12 p-2 text-left align-top text-xs font-medium text-muted-foreground">
                {t`Row`}
              </th>
              {upload.headers.map((_, index) => (
                <th key={index} scope="col" className="min-w-44 p-2 text-left align-top font-medium">
                  <label className="grid gap-1.5">
                    <span className="truncate">{columnName(index)}</span>
                    <NativeSelect
                      aria-label={columnName(index)}
                      value={mapping[String(index)] ?? "ignore"}
                      onChange={(event) => {
                        const target = targets.find((option) => option.value === event.target.value);
                        if (target) onChange(assignTarget(mapping, String(index), target.value));
                      }}
                    >
                      {targets.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </NativeSelect>
                  </label>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {upload.preview.map((row, rowIndex) => (
              <tr key={rowIndex} className="border-t">
                <td className="p-2 text-xs text-muted-foreground tabular-nums">{upload.previewRows[rowIndex] ?? ""}</td>
                {upload.headers.map((_, index) => (
                  <td key={index} className="max-w-56 truncate p-2 text-muted-foreground">
                    {row[index] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-muted-foreground">{t`The first rows of the file are shown. Contacts are matched by phone: an existing contact is updated, a new one created.`}</p>
      {problems.length ? (
        <Alert variant="warning">
          <CircleAlert />
          <div className="grid gap-1">
            {problems.map((code) => (
              <p key={code}>{i18n._(fieldErrorMessage(code))}</p>
            ))}
          </div>
        </Alert>
      ) : null}
      {error ? (
        <Alert variant="destructive">
          <CircleAlert />
          <p>{error}</p>
        </Alert>
      ) : null}
      <DialogFooter>
        <Button onClick={() => void start()} disabled={pending || problems.length > 0}>
          {pending ? <Spinner /> : null}
          {t`Start import`}
        </Button>
      </DialogFooter>
    </div>
  );
}

function RunStep({ jobId, onClose }: { jobId: string; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const job = useJob(jobId);
  const data = job.data;
  const finished = data ? isJobFinished(data) : false;

  if (!data) {
    return job.isError ? (
      <Alert variant="destructive">
        <CircleAlert />
        <p>{i18n._(errorMessage(job.error))}</p>
      </Alert>
    ) : (
      <div className="flex justify-center py-6">
        <Spinner className="size-6 text-muted-foreground" />
      </div>
    );
  }

  const failure = jobFailureMessage(data);
  return (
    <div className="grid gap-4">
      {data.status === "failed" ? (
        <Alert variant="destructive">
          <CircleAlert />
          <div className="grid gap-1">
            <p className="font-medium">{t`The import failed.`}</p>
            <p>{failure ? i18n._(failure) : (data.errorMessage ?? t`An error occurred. Try again.`)}</p>
          </div>
        </Alert>
      ) : (
        <JobProgressBar job={data} label={t`Import progress`} />
      )}
      {data.status === "done" ? (
        <Alert>
          <CircleCheck />
          <div className="grid gap-1">
            <p className="font-medium">{t`Contacts imported.`}</p>
            <p>{countText(i18n, data.errors ? "importedRefused" : "imported", importedCount(data), { refused: data.errors })}</p>
          </div>
        </Alert>
      ) : null}
      {data.reportUrl ? (
        <Button asChild variant="outline" className="justify-self-start">
          <a href={data.reportUrl} download>
            <Download />
            {t`Download the refused rows`}
          </a>
        </Button>
      ) : null}
      <DialogFooter>
        <Button variant={finished ? "default" : "outline"} onClick={onClose}>
          {finished ? t`Close` : t`Hide (the import continues)`}
        </Button>
      </DialogFooter>
    </div>
  );
}

/**
 * The import dialog; `fields` are the company's custom fields (the mapping offers the importable
 * ones). `onStarted` hands the running job to the page, which follows it after the dialog closes.
 */
export function ImportDialog({
  open,
  onOpenChange,
  fields,
  onStarted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fields: readonly CustomFieldAnswer[];
  onStarted: (jobId: string) => void;
}) {
  const { t } = useLingui();
  const [step, setStep] = useState<Step>({ kind: "upload" });
  const fieldIds = new Set(filterableFields(fields).map((field) => field.id));

  const change = (next: boolean) => {
    // A finished or abandoned dialog starts over next time; a running import keeps going server-side.
    if (!next) setStep({ kind: "upload" });
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent className={step.kind === "map" ? "max-w-4xl" : "max-w-lg"}>
        <DialogHeader>
          <DialogTitle>{t`Import contacts`}</DialogTitle>
          <DialogDescription>
            {step.kind === "upload"
              ? t`Step 1 of 3: choose an .xlsx spreadsheet.`
              : step.kind === "map"
                ? t`Step 2 of 3: choose where each column goes. One column must be the phone.`
                : t`Step 3 of 3: importing. You may close this window; the import continues.`}
          </DialogDescription>
        </DialogHeader>
        {step.kind === "upload" ? (
          <UploadStep onUploaded={(upload) => setStep({ kind: "map", upload, mapping: initialMapping(upload.headers, upload.suggestedMapping, fieldIds) })} />
        ) : step.kind === "map" ? (
          <MapStep
            upload={step.upload}
            mapping={step.mapping}
            fields={fields}
            onChange={(mapping) => setStep({ ...step, mapping })}
            onPreview={(upload) => setStep({ kind: "map", upload, mapping: initialMapping(upload.headers, upload.suggestedMapping, fieldIds) })}
            onStarted={(jobId) => {
              setStep({ kind: "run", jobId });
              onStarted(jobId);
            }}
          />
        ) : (
          <RunStep jobId={step.jobId} onClose={() => change(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}
