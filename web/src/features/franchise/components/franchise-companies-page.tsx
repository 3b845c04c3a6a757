/**
 * /franchise/companies (spec §2 franchise tab "companies"; issue 14): the franchise's companies,
 * searchable and paged by cursor; "New company" creates one for a client (its owner invited by
 * e-mail) with a plan and a franchise role; each company's plan and role are edited in a
 * slide-over; suspend and resume after confirmation.
 */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Building2, Pause, Pencil, Play, Plus, Search } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { formatDate } from "@/lib/dates";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useDebounced } from "@/lib/use-debounced";
import {
  FRANCHISE_COMPANY_PLANS,
  franchiseCompanyCreateInput,
  franchiseCompanyUpdateInput,
  type FranchiseCompanyAnswer,
} from "../../../../../schema/validation/franchise";
import { createFranchiseCompany, franchiseCompaniesQuery, franchiseKeys, franchiseRolesShortQuery, updateFranchiseCompany } from "../api/franchise-api";
import { labelOf, PLAN_LABELS, STATUS_LABELS } from "../lib/labels";
import { FranchiseQueryState } from "./franchise-query-state";
import { ListFooter, ListSearch } from "./paged-list";

/** The plan and franchise role pickers shared by the create and edit forms. */
function PlanAndRoleFields({ register, errors }: { register: (name: "plan" | "franchiseRoleId") => object; errors: { plan?: { message?: string }; franchiseRoleId?: { message?: string } } }) {
  const { t, i18n } = useLingui();
  const roles = useQuery(franchiseRolesShortQuery());
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField label={t`Plan`} error={errors.plan?.message}>
        <NativeSelect {...register("plan")}>
          {FRANCHISE_COMPANY_PLANS.map((plan) => (
            <option key={plan} value={plan}>
              {labelOf(i18n, PLAN_LABELS, plan)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField label={t`Franchise role`} error={errors.franchiseRoleId?.message} hint={t`The features the company may use.`}>
        <NativeSelect {...register("franchiseRoleId")} disabled={roles.isPending}>
          <option value="">{t`No role (every feature)`}</option>
          {(roles.data ?? []).map((role) => (
            <option key={role.id} value={role.id}>
              {role.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </div>
  );
}

/** A blank role choice is "no role" (null). */
const roleOrNull = (value: string | null | undefined) => (value ? value : null);

/** The forms hold the role as the select's text ("" = no role); it becomes null when sent. */
const createFormSchema = franchiseCompanyCreateInput.extend({ franchiseRoleId: z.string() });
type CreateValues = z.input<typeof createFormSchema>;
const editFormSchema = franchiseCompanyUpdateInput.extend({ franchiseRoleId: z.string() });
type EditValues = z.input<typeof editFormSchema>;

function CreateCompanyForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<CreateValues>({
    resolver: zodResolver(createFormSchema),
    defaultValues: { name: "", ownerEmail: "", ownerName: "", plan: "trial", franchiseRoleId: "" },
  });
  const create = useMutation({
    mutationFn: (input: CreateValues) => createFranchiseCompany({ ...input, franchiseRoleId: roleOrNull(input.franchiseRoleId) }),
    onSuccess: async () => {
      notifySuccess("created");
      await queryClient.invalidateQueries({ queryKey: franchiseKeys.all });
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "ownerEmail", "ownerName", "plan", "franchiseRoleId"]);
    }
  });
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={create.isPending} submitLabel={t`Create company`}>
      <FormField label={t`Company name`} error={errors.name?.message}>
        <Input autoFocus autoComplete="off" {...form.register("name")} />
      </FormField>
      <FormField label={t`Owner's e-mail`} error={errors.ownerEmail?.message} hint={t`They receive an invitation to sign in and run the company.`}>
        <Input type="email" autoComplete="off" {...form.register("ownerEmail")} />
      </FormField>
      <FormField label={t`Owner's name`} error={errors.ownerName?.message} hint={t`Optional.`}>
        <Input autoComplete="off" {...form.register("ownerName")} />
      </FormField>
      <PlanAndRoleFields register={(name) => form.register(name)} errors={errors} />
    </FormSheetForm>
  );
}

function EditCompanyForm({ company, onDone }: { company: FranchiseCompanyAnswer; onDone: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const plan = FRANCHISE_COMPANY_PLANS.find((item) => item === company.plan) ?? "trial";
  const form = useForm<EditValues>({
    resolver: zodResolver(editFormSchema),
    defaultValues: { name: company.name, plan, franchiseRoleId: company.franchiseRoleId ?? "" },
  });
  const save = useMutation({
    mutationFn: (input: EditValues) => updateFranchiseCompany(company.id, { ...input, franchiseRoleId: roleOrNull(input.franchiseRoleId) }),
    onSuccess: async () => {
      notifySuccess("edited");
      await queryClient.invalidateQueries({ queryKey: franchiseKeys.all });
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "plan", "franchiseRoleId"]);
    }
  });
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={t`Save changes`}>
      <FormField label={t`Company name`} error={errors.name?.message}>
        <Input autoComplete="off" {...form.register("name")} />
      </FormField>
      <PlanAndRoleFields register={(name) => form.register(name)} errors={errors} />
    </FormSheetForm>
  );
}

function CompanyRow({ company, onEdit, onToggle }: { company: FranchiseCompanyAnswer; onEdit: () => void; onToggle: () => void }) {
  const { t, i18n } = useLingui();
  const name = company.name;
  const owner = company.owner ? `${company.owner.name} · ${company.owner.email}` : t`Owner not signed up yet`;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="franchise-company-row" aria-label={name}>
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate text-sm font-medium">{name}</p>
          {company.suspended ? <Badge variant="destructive">{t`Suspended`}</Badge> : null}
          <Badge variant="outline">{labelOf(i18n, PLAN_LABELS, company.plan)}</Badge>
          <Badge variant="secondary">{labelOf(i18n, STATUS_LABELS, company.paymentStatus)}</Badge>
        </div>
        <p className="truncate text-xs text-muted-foreground">{owner}</p>
        <p className="text-xs text-muted-foreground">
          {company.franchiseRoleName ? t`Role: ${company.franchiseRoleName}` : t`No role (every feature)`}
          {" · "}
          {t`Due ${formatDate(company.dueDate, { locale: i18n.locale, style: "medium" })}`}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={t`Edit ${name}`}>
          <Pencil />
          {t`Edit`}
        </Button>
        <Button variant="outline" size="sm" onClick={onToggle} aria-label={company.suspended ? t`Resume ${name}` : t`Suspend ${name}`}>
          {company.suspended ? <Play /> : <Pause />}
          {company.suspended ? t`Resume` : t`Suspend`}
        </Button>
      </div>
    </li>
  );
}

/** What the sheet shows: a new company or an existing one. */
type CompanyTarget = { kind: "new" } | { kind: "edit"; company: FranchiseCompanyAnswer };

/** The franchise companies tab. */
export function FranchiseCompaniesPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), 300);
  const list = useInfiniteQuery(franchiseCompaniesQuery(search));
  const [target, setTarget] = useState<CompanyTarget | null>(null);
  const [toggling, setToggling] = useState<FranchiseCompanyAnswer | null>(null);
  const toggle = useMutation({
    mutationFn: (company: FranchiseCompanyAnswer) => updateFranchiseCompany(company.id, { suspended: !company.suspended }),
    onSuccess: async () => {
      notifySuccess("edited");
      setToggling(null);
      await queryClient.invalidateQueries({ queryKey: franchiseKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  const companies = list.data?.pages.flatMap((answer) => answer.results) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const create = () => setTarget({ kind: "new" });
  const editing = target?.kind === "edit" ? target.company : null;
  const togglingName = toggling?.name ?? "";

  return (
    <section aria-label={t`Companies`} className="grid max-w-5xl gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-sm text-muted-foreground">{t`The companies of your clients: their plan, their role and whether they may use the product.`}</p>
        <Button onClick={create} data-testid="new-franchise-company">
          <Plus />
          {t`New company`}
        </Button>
      </div>
      <ListSearch value={text} onChange={setText} label={t`Search companies`} placeholder={t`Search by name`} />
      <FranchiseQueryState pending={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
        {() => (
          <Card>
            {companies.length === 0 ? (
              search ? (
                <EmptyState icon={<Search />} title={t`No companies match "${search}"`} description={t`Try another name.`} />
              ) : (
                <EmptyState
                  icon={<Building2 />}
                  title={t`No companies yet`}
                  description={t`Create a company for a client; its owner receives an invitation by e-mail.`}
                  action={
                    <Button variant="outline" onClick={create}>
                      <Plus />
                      {t`New company`}
                    </Button>
                  }
                />
              )
            ) : (
              <>
                <ul className="divide-y" aria-label={t`Companies`}>
                  {companies.map((company) => (
                    <CompanyRow key={company.id} company={company} onEdit={() => setTarget({ kind: "edit", company })} onToggle={() => setToggling(company)} />
                  ))}
                </ul>
                <ListFooter shown={companies.length} total={total} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
              </>
            )}
          </Card>
        )}
      </FranchiseQueryState>
      <FormSheet
        open={target !== null}
        onClose={() => setTarget(null)}
        title={editing ? t`Edit company` : t`New company`}
        description={editing ? t`Its plan and the features its role allows.` : t`A company for a client, with its owner, plan and role.`}
      >
        {target?.kind === "new" ? <CreateCompanyForm onDone={() => setTarget(null)} /> : null}
        {editing ? <EditCompanyForm key={editing.id} company={editing} onDone={() => setTarget(null)} /> : null}
      </FormSheet>
      <ConfirmDialog
        open={toggling !== null}
        onOpenChange={(open) => (open ? undefined : setToggling(null))}
        title={toggling?.suspended ? t`Resume ${togglingName}?` : t`Suspend ${togglingName}?`}
        description={
          toggling?.suspended
            ? t`Its members can use the product again.`
            : t`Its members are stopped as if the payment were overdue until you resume it. Nothing is deleted.`
        }
        confirmLabel={toggling?.suspended ? t`Resume` : t`Suspend`}
        destructive={!toggling?.suspended}
        pending={toggle.isPending}
        onConfirm={() => toggling && toggle.mutate(toggling)}
      />
    </section>
  );
}
