import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Braces, File as FileIcon, Paperclip, X } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import type { QuickMessageAnswer } from "../../../../../schema/api-types";
import { useSaveQuickMessage, useTemplateVariables } from "../hooks/use-quick-messages";
import { BUILT_IN_VARIABLES, MAX_QUICK_MESSAGE_TEXT, formatFileSize, insertAt, quickMessageForm, type QuickMessageFormValues } from "../lib/quick-message-form";

/** Largest attachment the worker accepts (100 MB). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** What the sheet edits: a new quick message, or an existing one. */
export type QuickMessageSheetTarget = { kind: "new" } | { kind: "edit"; message: QuickMessageAnswer };

function VariablesMenu({ onInsert }: { onInsert: (key: string) => void }) {
  const { t, i18n } = useLingui();
  const { variables, loading } = useTemplateVariables();
  const builtInLabel = new Map(BUILT_IN_VARIABLES.map((v) => [v.key, v.label]));
  const custom = variables.filter((v) => v.name !== null);
  const builtIn = variables.filter((v) => v.name === null);
  const item = (key: string, name: string) => (
    <DropdownMenuItem key={key} onSelect={() => onInsert(key)}>
      <span className="min-w-0 flex-1 truncate">{name}</span>
      <code className="shrink-0 rounded bg-muted px-1 text-xs text-muted-foreground">{`{{${key}}}`}</code>
    </DropdownMenuItem>
  );
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          <Braces />
          {t`Insert variable`}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuLabel>{t`Contact`}</DropdownMenuLabel>
        {builtIn.map((v) => {
          const label = builtInLabel.get(v.key);
          return item(v.key, label ? i18n._(label) : v.key);
        })}
        {loading ? (
          <div className="flex items-center gap-2 px-2 py-1.5 text-xs text-muted-foreground">
            <Spinner />
            {t`Loading custom fields…`}
          </div>
        ) : custom.length ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuLabel>{t`Custom fields`}</DropdownMenuLabel>
            {custom.map((v) => item(v.key, v.name ?? v.key))}
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function QuickMessageForm({ target, onDone }: { target: QuickMessageSheetTarget; onDone: () => void }) {
  const { t } = useLingui();
  const save = useSaveQuickMessage();
  const message = target.kind === "edit" ? target.message : null;
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement | null>(null);
  const form = useForm<QuickMessageFormValues>({
    resolver: zodResolver(quickMessageForm),
    defaultValues: { name: message?.name ?? "", text: message?.text ?? "" },
  });
  const { errors } = form.formState;
  const currentMedia = message?.media && !removeMedia && !file ? message.media : null;
  const textField = form.register("text");
  const example = "{{first_name}}";

  const insertVariable = (key: string) => {
    const element = textRef.current;
    const value = form.getValues("text");
    const next = insertAt(value, element?.selectionStart ?? value.length, element?.selectionEnd ?? value.length, `{{${key}}}`);
    form.setValue("text", next.text, { shouldDirty: true });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(next.caret, next.caret);
    });
  };

  const pickFile = (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > MAX_FILE_BYTES) {
      setFileError(t`The file is larger than 100 MB.`);
      return;
    }
    if (picked.size === 0) {
      setFileError(t`The file is empty.`);
      return;
    }
    setFileError(null);
    setFile(picked);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (!values.text && !file && !currentMedia) {
      form.setError("text", { type: "required", message: "text_or_file" });
      return;
    }
    try {
      await save.mutateAsync({ id: message?.id ?? null, input: { name: values.name, text: values.text, file, removeMedia: removeMedia && !file } });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "text"]);
    }
  });

  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={message ? t`Save changes` : t`Create quick message`}>
      <FormField label={t`Name`} error={errors.name?.message} hint={t`Type / and this name in a chat to use the message.`}>
        <Input autoFocus placeholder={t`e.g. Good morning`} {...form.register("name")} />
      </FormField>
      <FormField label={t`Text`} error={errors.text?.message} hint={t`Variables such as ${example} are filled in with the contact's data when the message is used.`}>
        <Textarea
          rows={8}
          maxLength={MAX_QUICK_MESSAGE_TEXT}
          {...textField}
          ref={(element) => {
            textField.ref(element);
            textRef.current = element;
          }}
        />
      </FormField>
      <div className="-mt-2">
        <VariablesMenu onInsert={insertVariable} />
      </div>
      <div className="grid gap-1.5">
        <span className="text-sm font-medium">{t`Attachment`}</span>
        {file || currentMedia ? (
          <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
            <FileIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            {file ? (
              <span className="min-w-0 flex-1 truncate">{file.name}</span>
            ) : (
              <a href={currentMedia?.url} target="_blank" rel="noreferrer" className="min-w-0 flex-1 truncate underline-offset-2 hover:underline">
                {currentMedia?.name ?? t`Attached file`}
              </a>
            )}
            <span className="shrink-0 text-xs text-muted-foreground">{formatFileSize(file?.size ?? currentMedia?.size ?? null)}</span>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={t`Remove attachment`}
              onClick={() => {
                if (file) setFile(null);
                else setRemoveMedia(true);
              }}
            >
              <X />
            </Button>
          </div>
        ) : (
          <p className="text-xs text-muted-foreground">{t`Optional: an image, audio, video or document sent with the text (up to 100 MB).`}</p>
        )}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => fileRef.current?.click()}>
            <Paperclip />
            {file || currentMedia ? t`Replace attachment` : t`Attach a file`}
          </Button>
        </div>
        <input
          ref={fileRef}
          type="file"
          className="hidden"
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            pickFile(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        {fileError ? <p className="text-xs font-medium text-destructive">{fileError}</p> : null}
      </div>
    </FormSheetForm>
  );
}

/** The quick message slide-over (spec §2 "each entity is edited in a slide-over form"). */
export function QuickMessageSheet({ target, onClose }: { target: QuickMessageSheetTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const message = target?.kind === "edit" ? target.message : null;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={message ? t`Edit quick message` : t`New quick message`} description={t`A saved text your team inserts in chats by typing /.`}>
      {target ? <QuickMessageForm key={message?.id ?? "new"} target={target} onDone={onClose} /> : null}
    </FormSheet>
  );
}
