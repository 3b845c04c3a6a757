/**
 * The folders screen's dialogs: create a builder (name + type) or a folder, rename either, and
 * move a builder to the root or into a folder.
 */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { applyServerErrors } from "@/lib/form-errors";
import type { FlowSummary } from "../../../../../schema/flow-api";
import { FLOW_TYPES } from "../../../../../schema/enums";
import { allFoldersQuery } from "../api/flows-api";
import { useCreateFlow, useCreateFolder, useMoveFlow, useRenameFolder, useUpdateFlow } from "../hooks/use-folders";
import { FLOW_TYPE_LABELS } from "../lib/labels";

const nameSchema = z.string().trim().min(1, { error: "required" }).max(100, { error: "too_long" });
const builderForm = z.object({ name: nameSchema, type: z.enum(FLOW_TYPES) });
const nameForm = z.object({ name: nameSchema });

/** What the name dialog does. */
export type NameDialogTarget =
  | { kind: "new-builder"; folderId: string | null }
  | { kind: "new-folder"; parentId: string | null }
  | { kind: "rename-builder"; id: string; name: string }
  | { kind: "rename-folder"; id: string; name: string };

function BuilderForm({ folderId, onDone }: { folderId: string | null; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const create = useCreateFlow();
  const form = useForm({ resolver: zodResolver(builderForm), defaultValues: { name: "", type: "default" as const } });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      const flow = await create.mutateAsync({ ...values, folderId });
      onDone();
      void navigate(`/flows/${flow.id}`);
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "type"]);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus {...form.register("name")} />
      </FormField>
      <FormField label={t`Type`} hint={t`Which default slot of a connection the builder is meant for.`}>
        <NativeSelect {...form.register("type")}>
          {FLOW_TYPES.map((type) => (
            <option key={type} value={type}>
              {i18n._(FLOW_TYPE_LABELS[type])}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {t`Cancel`}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Spinner /> : null}
          {t`Create builder`}
        </Button>
      </DialogFooter>
    </form>
  );
}

function NameForm({ target, onDone }: { target: Exclude<NameDialogTarget, { kind: "new-builder" }>; onDone: () => void }) {
  const { t } = useLingui();
  const createFolder = useCreateFolder();
  const renameFolder = useRenameFolder();
  const updateFlow = useUpdateFlow();
  const form = useForm({ resolver: zodResolver(nameForm), defaultValues: { name: target.kind === "new-folder" ? "" : target.name } });
  const { errors } = form.formState;
  const pending = createFolder.isPending || renameFolder.isPending || updateFlow.isPending;
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      if (target.kind === "new-folder") await createFolder.mutateAsync({ name, parentId: target.parentId });
      else if (target.kind === "rename-folder") await renameFolder.mutateAsync({ id: target.id, name });
      else await updateFlow.mutateAsync({ id: target.id, update: { name } });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name"]);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus {...form.register("name")} />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {t`Cancel`}
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : null}
          {target.kind === "new-folder" ? t`Create folder` : t`Save changes`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The create / rename dialog. */
export function NameDialog({ target, onClose }: { target: NameDialogTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const title = !target ? "" : { "new-builder": t`New builder`, "new-folder": t`New folder`, "rename-builder": t`Rename builder`, "rename-folder": t`Rename folder` }[target.kind];
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{target?.kind === "new-builder" ? t`A builder is a flow your bot runs.` : t`Folders keep builders in order.`}</DialogDescription>
        </DialogHeader>
        {target?.kind === "new-builder" ? <BuilderForm folderId={target.folderId} onDone={onClose} /> : target ? <NameForm key={target.kind} target={target} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** Moves a builder to the root or into a folder. */
export function MoveDialog({ flow, onClose }: { flow: FlowSummary | null; onClose: () => void }) {
  const { t } = useLingui();
  const folders = useQuery({ ...allFoldersQuery(), enabled: flow !== null });
  const move = useMoveFlow();
  const [target, setTarget] = useState("");
  const name = flow?.name ?? "";
  return (
    <Dialog open={flow !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t`Move ${name}`}</DialogTitle>
          <DialogDescription>{t`Choose where the builder goes.`}</DialogDescription>
        </DialogHeader>
        <FormField label={t`Destination`}>
          <NativeSelect value={target} onChange={(event) => setTarget(event.target.value)} disabled={folders.isPending}>
            <option value="">{t`Root (no folder)`}</option>
            {(folders.data ?? [])
              .filter((folder) => folder.id !== flow?.folderId)
              .map((folder) => (
                <option key={folder.id} value={folder.id}>
                  {folder.name}
                </option>
              ))}
          </NativeSelect>
        </FormField>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t`Cancel`}
          </Button>
          <Button
            disabled={move.isPending || !flow || (target === "" && flow.folderId === null)}
            onClick={() => flow && move.mutate({ id: flow.id, folderId: target || null }, { onSuccess: onClose })}
          >
            {move.isPending ? <Spinner /> : null}
            {t`Move`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
