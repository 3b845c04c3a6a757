/**
 * /admin/franchises (issue 14; DESIGN.md "Platform administration", "Franchises"): the franchises,
 * for platform administrators only (the API answers 403 to anyone else, 404 with franchise mode
 * off). Create, rename and recolour a franchise in a slide-over, delete it after confirmation (its
 * companies stay, detached); attach hostnames and see, for each, its status and the DNS records
 * the franchise must create (refreshed from Cloudflare on demand); add a franchise administrator
 * by the e-mail of an existing account, or remove one.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plural, useLingui } from "@lingui/react/macro";
import { Building2, Copy, Globe, Plus, RefreshCw, Trash2, X } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Badge } from "@/components/ui/badge";
import { RowActions } from "@/components/row-actions";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage, fieldErrorMessage } from "@/lib/error-messages";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError, notifySuccess } from "@/lib/notify";
import { copyText } from "@/features/settings/components/secret-shown-once";
import { HOSTNAME_STATUS_LABELS, labelOf } from "@/features/franchise/lib/labels";
import { isNotFranchiseAdmin } from "@/features/franchise/components/franchise-query-state";
import { z } from "zod";
import { adminFranchiseInput, type AdminFranchiseAnswer, type FranchiseHostnameAnswer } from "../../../../../schema/validation/franchise";
import {
  addFranchiseAdmin,
  addHostname,
  adminFranchiseKeys,
  adminFranchisesQuery,
  createFranchise,
  deleteFranchise,
  refreshHostname,
  removeFranchiseAdmin,
  removeHostname,
  updateFranchise,
} from "../api/admin-franchises-api";
import { useAdminAccess } from "./admin-page";
import { AdminTabs } from "./admin-tabs";

/** The form holds the colour as text ("" = the product's); it becomes null when sent. */
const franchiseFormSchema = adminFranchiseInput.extend({
  primaryColor: z.string().trim().refine((value) => value === "" || /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value), { error: "invalid_color" }),
});
type FranchiseValues = z.input<typeof franchiseFormSchema>;

type FranchiseTarget = { kind: "new" } | { kind: "edit"; franchise: AdminFranchiseAnswer };

function FranchiseForm({ target, onDone }: { target: FranchiseTarget; onDone: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const franchise = target.kind === "edit" ? target.franchise : null;
  const form = useForm<FranchiseValues>({
    resolver: zodResolver(franchiseFormSchema),
    defaultValues: { name: franchise?.name ?? "", primaryColor: franchise?.primaryColor ?? "" },
  });
  const save = useMutation({
    mutationFn: (values: FranchiseValues) => {
      const input = { name: values.name, primaryColor: values.primaryColor.trim() ? values.primaryColor.trim().toLowerCase() : null };
      return franchise ? updateFranchise(franchise.id, input) : createFranchise(input);
    },
    onSuccess: async () => {
      notifySuccess(franchise ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: adminFranchiseKeys.all });
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "primaryColor"]);
    }
  });
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={franchise ? t`Save changes` : t`Create franchise`}>
      <FormField label={t`Franchise name`} error={errors.name?.message}>
        <Input autoFocus autoComplete="off" {...form.register("name")} />
      </FormField>
      <FormField label={t`Primary colour`} error={errors.primaryColor?.message} hint={t`E.g. #1d4ed8. Leave blank for the product's colour; the franchise can change it in its settings.`}>
        <Input maxLength={7} className="max-w-32 font-mono" {...form.register("primaryColor")} />
      </FormField>
    </FormSheetForm>
  );
}

/** One hostname: its status, the DNS records to create, refresh and remove. */
function HostnameItem({ franchiseId, host, onRemove }: { franchiseId: string; host: FranchiseHostnameAnswer; onRemove: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => refreshHostname(franchiseId, host.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminFranchiseKeys.all }),
    onError: (error) => notifyError(error),
  });
  const hostname = host.hostname;
  const active = host.status === "active" || host.status === "local";
  return (
    <li className="grid gap-2 py-3" data-testid="franchise-hostname" aria-label={hostname}>
      <div className="flex flex-wrap items-center gap-2">
        <Globe className="size-4 text-muted-foreground" aria-hidden />
        <span className="font-mono text-sm">{hostname}</span>
        <Badge variant={active ? "default" : "secondary"}>{labelOf(i18n, HOSTNAME_STATUS_LABELS, host.status)}</Badge>
        {host.sslStatus ? <Badge variant="outline">{t`Certificate: ${host.sslStatus}`}</Badge> : null}
        <div className="ml-auto flex gap-1">
          {host.status !== "local" ? (
            <Button variant="ghost" size="sm" onClick={() => refresh.mutate()} disabled={refresh.isPending} aria-label={t`Check ${hostname} again`}>
              {refresh.isPending ? <Spinner /> : <RefreshCw />}
              <span className="sr-only sm:not-sr-only">{t`Check again`}</span>
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onRemove} aria-label={t`Remove ${hostname}`}>
            <Trash2 />
          </Button>
        </div>
      </div>
      {host.records.length > 0 ? (
        <div className="grid gap-1">
          <p className="text-xs text-muted-foreground">{t`DNS records to create at the domain's provider:`}</p>
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-left text-xs">
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th className="px-2 py-1 font-medium">{t`Type`}</th>
                  <th className="px-2 py-1 font-medium">{t`Name`}</th>
                  <th className="px-2 py-1 font-medium">{t`Value`}</th>
                  <th className="px-2 py-1 font-medium">{t`For`}</th>
                  <th className="px-2 py-1">
                    <span className="sr-only">{t`Copy`}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {host.records.map((record) => (
                  <tr key={`${record.type}-${record.name}-${record.value}`} className="border-t">
                    <td className="px-2 py-1 font-mono">{record.type}</td>
                    <td className="px-2 py-1 font-mono break-all">{record.name}</td>
                    <td className="px-2 py-1 font-mono break-all">{record.value}</td>
                    <td className="px-2 py-1">{record.purpose === "ownership" ? t`Ownership` : t`Certificate`}</td>
                    <td className="px-2 py-1">
                      <Button variant="ghost" size="icon" onClick={() => void copyText(record.value)} aria-label={t`Copy the value`}>
                        <Copy />
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : host.status === "local" ? (
        <p className="text-xs text-muted-foreground">{t`Local hostname: it works on this machine without DNS records.`}</p>
      ) : null}
    </li>
  );
}

/** A one-line form: an input and a submit button, with the field's error under it. */
function InlineAdd({
  label,
  placeholder,
  submitLabel,
  type = "text",
  pending,
  error,
  onSubmit,
  extra,
}: {
  label: string;
  placeholder: string;
  submitLabel: string;
  type?: string;
  pending: boolean;
  error: string | null;
  onSubmit: (value: string) => void;
  extra?: ReactNode;
}) {
  const [value, setValue] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onSubmit(value.trim());
  };
  return (
    <form onSubmit={submit} className="grid gap-1" noValidate>
      <div className="flex flex-wrap gap-2">
        <Input type={type} value={value} onChange={(event) => setValue(event.target.value)} aria-label={label} placeholder={placeholder} className="min-w-48 flex-1" aria-invalid={error ? true : undefined} />
        {extra}
        <Button type="submit" variant="outline" disabled={pending || !value.trim()}>
          {pending ? <Spinner /> : <Plus />}
          {submitLabel}
        </Button>
      </div>
      {error ? <p className="text-xs font-medium text-destructive">{error}</p> : null}
    </form>
  );
}

/** The message of a failed add: the field's code when the server named one, else the call's message. */
function useAddError() {
  const { i18n } = useLingui();
  return (error: unknown, field: string): string | null => {
    if (!error) return null;
    const code = isApiError(error) ? error.fields[field] : undefined;
    return i18n._(code ? fieldErrorMessage(code) : errorMessage(error));
  };
}

function FranchiseCard({ franchise, onEdit, onDelete }: { franchise: AdminFranchiseAnswer; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const addError = useAddError();
  const [sslMethod, setSslMethod] = useState<"txt" | "http">("txt");
  const [removingHost, setRemovingHost] = useState<FranchiseHostnameAnswer | null>(null);
  const refreshList = () => queryClient.invalidateQueries({ queryKey: adminFranchiseKeys.all });
  const addHost = useMutation({ mutationFn: (hostname: string) => addHostname(franchise.id, { hostname, sslMethod }), onSuccess: refreshList });
  const removeHost = useMutation({
    mutationFn: (hostId: string) => removeHostname(franchise.id, hostId),
    onSuccess: async () => {
      notifySuccess("deleted");
      setRemovingHost(null);
      await refreshList();
    },
    onError: (error) => notifyError(error),
  });
  const addAdmin = useMutation({
    mutationFn: (email: string) => addFranchiseAdmin(franchise.id, { email }),
    onSuccess: async () => {
      notifySuccess("created");
      await refreshList();
    },
  });
  const removeAdmin = useMutation({
    mutationFn: (userId: string) => removeFranchiseAdmin(franchise.id, userId),
    onSuccess: async () => {
      notifySuccess("deleted");
      await refreshList();
    },
    onError: (error) => notifyError(error),
  });
  const name = franchise.name;
  const companies = franchise.companies;
  const removingName = removingHost?.hostname ?? "";
  return (
    <Card data-testid="admin-franchise" aria-label={name}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle as="h2" className="flex items-center gap-2">
            {franchise.primaryColor ? <span className="size-3 rounded-full border" style={{ background: franchise.primaryColor }} aria-hidden /> : null}
            {name}
          </CardTitle>
          <p className="text-xs text-muted-foreground">
            <Plural value={companies} one="# company" other="# companies" />
          </p>
        </div>
        <RowActions name={name} onEdit={onEdit} onDelete={onDelete} />
      </CardHeader>
      <CardContent className="grid gap-6">
        <section className="grid gap-2" aria-label={t`Hostnames`}>
          <h3 className="text-sm font-semibold">{t`Hostnames`}</h3>
          {franchise.hostnames.length === 0 ? (
            <p className="text-xs text-muted-foreground">{t`No hostname yet: the franchise is reached through the addresses added here.`}</p>
          ) : (
            <ul className="divide-y">
              {franchise.hostnames.map((host) => (
                <HostnameItem key={host.id} franchiseId={franchise.id} host={host} onRemove={() => setRemovingHost(host)} />
              ))}
            </ul>
          )}
          <InlineAdd
            label={t`New hostname`}
            placeholder={t`app.example.com`}
            submitLabel={t`Add hostname`}
            pending={addHost.isPending}
            error={addError(addHost.error, "hostname")}
            onSubmit={(hostname) => addHost.mutate(hostname)}
            extra={
              <NativeSelect className="w-44" aria-label={t`Certificate validation`} value={sslMethod} onChange={(event) => setSslMethod(event.target.value === "http" ? "http" : "txt")}>
                <option value="txt">{t`DNS (TXT record)`}</option>
                <option value="http">{t`HTTP`}</option>
              </NativeSelect>
            }
          />
        </section>
        <section className="grid gap-2" aria-label={t`Franchise administrators`}>
          <h3 className="text-sm font-semibold">{t`Franchise administrators`}</h3>
          {franchise.admins.length === 0 ? (
            <p className="text-xs text-muted-foreground">{t`Nobody administers this franchise yet.`}</p>
          ) : (
            <ul className="divide-y">
              {franchise.admins.map((admin) => {
                const adminName = admin.name;
                return (
                  <li key={admin.id} className="flex items-center justify-between gap-2 py-2 text-sm">
                    <span className="min-w-0 truncate">
                      {adminName} <span className="text-muted-foreground">· {admin.email}</span>
                    </span>
                    <Button variant="ghost" size="icon" onClick={() => removeAdmin.mutate(admin.id)} disabled={removeAdmin.isPending} aria-label={t`Remove ${adminName}`}>
                      <X />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <InlineAdd
            label={t`Administrator's e-mail`}
            placeholder={t`name@example.com`}
            submitLabel={t`Add administrator`}
            type="email"
            pending={addAdmin.isPending}
            error={addError(addAdmin.error, "email")}
            onSubmit={(email) => addAdmin.mutate(email)}
          />
          <p className="text-xs text-muted-foreground">{t`The person needs an account first.`}</p>
        </section>
      </CardContent>
      <ConfirmDialog
        open={removingHost !== null}
        onOpenChange={(open) => (open ? undefined : setRemovingHost(null))}
        title={t`Remove ${removingName}?`}
        description={t`The franchise stops answering on this address, and its certificate is removed.`}
        confirmLabel={t`Remove`}
        pending={removeHost.isPending}
        onConfirm={() => removingHost && removeHost.mutate(removingHost.id)}
      />
    </Card>
  );
}

/** The Admin area's franchises screen. */
export function AdminFranchisesPage() {
  const { t } = useLingui();
  const { allowed, gate } = useAdminAccess();
  const queryClient = useQueryClient();
  const list = useQuery({ ...adminFranchisesQuery(), enabled: allowed });
  const [target, setTarget] = useState<FranchiseTarget | null>(null);
  const [deleting, setDeleting] = useState<AdminFranchiseAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteFranchise(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: adminFranchiseKeys.all });
    },
    onError: (error) => notifyError(error),
  });

  if (gate) return gate;
  const deletingName = deleting?.name ?? "";
  const editing = target?.kind === "edit" ? target.franchise : null;
  return (
    <div className="grid gap-4">
      <AdminTabs />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-muted-foreground">{t`Admin`}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{t`Franchises`}</h1>
          <p className="text-sm text-muted-foreground">{t`Resellers who run the product under their own brand and addresses.`}</p>
        </div>
        <Button onClick={() => setTarget({ kind: "new" })} data-testid="new-franchise">
          <Plus />
          {t`New franchise`}
        </Button>
      </div>
      {list.isPending ? (
        <div className="grid gap-3">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : list.isError ? (
        <Card>
          {isNotFranchiseAdmin(list.error) ? (
            <EmptyState icon={<Building2 />} title={t`Franchise mode is off.`} description={t`Turn FRANCHISE_MODE on to manage franchises.`} />
          ) : (
            <ErrorState onRetry={() => void list.refetch()} />
          )}
        </Card>
      ) : list.data.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Building2 />}
            title={t`No franchises yet`}
            description={t`Create one, attach its hostname and add its administrator.`}
            action={
              <Button variant="outline" onClick={() => setTarget({ kind: "new" })}>
                <Plus />
                {t`New franchise`}
              </Button>
            }
          />
        </Card>
      ) : (
        <div className="grid gap-4">
          {list.data.map((franchise) => (
            <FranchiseCard key={franchise.id} franchise={franchise} onEdit={() => setTarget({ kind: "edit", franchise })} onDelete={() => setDeleting(franchise)} />
          ))}
        </div>
      )}
      <FormSheet
        open={target !== null}
        onClose={() => setTarget(null)}
        title={editing ? t`Edit franchise` : t`New franchise`}
        description={t`Its name and colour; the franchise sets its logo, favicon and texts in its own area.`}
      >
        {target ? <FranchiseForm key={editing?.id ?? "new"} target={target} onDone={() => setTarget(null)} /> : null}
      </FormSheet>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the franchise ${deletingName}?`}
        description={t`Its hostnames, administrators and roles are removed; its companies stay, without a franchise. This cannot be undone.`}
        confirmLabel={t`Delete franchise`}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}
