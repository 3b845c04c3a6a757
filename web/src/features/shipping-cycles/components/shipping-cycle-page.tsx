/**
 * /shipping-cycle/{id} (spec §2, §3 Shipping cycle "steps with start-flow timing after the last
 * action, active flag", §9 cycle units; permission `shipping_cycles`): the cycle editor. Name, the
 * on/off switch and the ordered steps — each a published flow and the wait before it starts (a
 * value and a unit: seconds, minutes, hours, days, months) — reordered by dragging the grip (mouse,
 * touch, or keyboard: Space, arrows, Space) or with the move buttons; add and remove steps; save.
 * `/shipping-cycle/new` creates a cycle and then shows it at its own address.
 */
import { useState, type CSSProperties } from "react";
import { Controller, useFieldArray, useForm, type UseFormReturn } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate, useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { Plural, useLingui } from "@lingui/react/macro";
import { DndContext, KeyboardSensor, PointerSensor, TouchSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { ArrowDown, ArrowLeft, ArrowUp, GripVertical, Plus, Trash2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { NotFoundPage } from "@/app/routes/not-found";
import { isNotFound } from "@/lib/error-messages";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError } from "@/lib/notify";
import { CYCLE_UNITS, MAX_CYCLE_STEPS, shippingCycleInput, type ShippingCycleAnswer, type ShippingCycleInput } from "../../../../../schema/validation/shipping-cycles";
import { cycleFlowsQuery } from "../api/shipping-cycles-api";
import { useCycle, useDeleteCycle, useSaveCycle } from "../hooks/use-shipping-cycles";
import { UNIT_LABELS, waitText } from "../lib/labels";

type CycleForm = UseFormReturn<ShippingCycleInput, unknown, ShippingCycleInput>;

/** The form's starting values: the cycle's, or a new cycle with one step starting a day later. */
function initialValues(cycle: ShippingCycleAnswer | null): ShippingCycleInput {
  if (!cycle) return { name: "", active: true, steps: [{ flowId: "", wait: { value: 1, unit: "day" } }] };
  return { name: cycle.name, active: cycle.active, steps: cycle.steps.map((step) => ({ flowId: step.flowId, wait: { ...step.wait } })) };
}

function StepCard({
  id,
  index,
  count,
  form,
  flows,
  onMove,
  onRemove,
}: {
  id: string;
  index: number;
  count: number;
  form: CycleForm;
  flows: { id: string; name: string }[];
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useLingui();
  const sortable = useSortable({ id, attributes: { roleDescription: t`sortable step` } });
  const position = index + 1;
  const errors = form.formState.errors.steps?.[index];
  const wait = form.watch(`steps.${index}.wait`);
  const waitValue = Number.isFinite(wait?.value) ? wait.value : 0;
  const waitShown = wait ? waitText(i18n, { value: waitValue, unit: wait.unit }) : "";
  const style: CSSProperties = {
    transform: sortable.transform ? `translate3d(${Math.round(sortable.transform.x)}px, ${Math.round(sortable.transform.y)}px, 0)` : undefined,
    transition: sortable.transition,
  };
  return (
    <li ref={sortable.setNodeRef} style={style} className={sortable.isDragging ? "relative z-10 opacity-80" : undefined} data-testid="cycle-step">
      <Card className="grid gap-3 p-4">
        <div className="flex items-center gap-1">
          <button
            type="button"
            className="-ml-1 inline-flex size-8 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={t`Drag step ${position}`}
            {...sortable.attributes}
            {...sortable.listeners}
          >
            <GripVertical className="size-4" />
          </button>
          <h3 className="mr-auto text-sm font-semibold">{t`Step ${position}`}</h3>
          <Button type="button" variant="ghost" size="icon" aria-label={t`Move step ${position} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
            <ArrowUp />
          </Button>
          <Button type="button" variant="ghost" size="icon" aria-label={t`Move step ${position} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
            <ArrowDown />
          </Button>
          <Button type="button" variant="ghost" size="icon" className="text-destructive hover:text-destructive" aria-label={t`Remove step ${position}`} disabled={count === 1} onClick={onRemove}>
            <Trash2 />
          </Button>
        </div>
        <FormField label={t`Flow to start`} error={errors?.flowId?.message}>
          <NativeSelect {...form.register(`steps.${index}.flowId`)}>
            <option value="">{t`Choose a flow`}</option>
            {flows.map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <div className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-2">
          <FormField label={t`Wait`} error={errors?.wait?.value?.message === "too_large" ? "wait_too_large" : errors?.wait?.value?.message}>
            <Input type="number" inputMode="numeric" min={0} step={1} {...form.register(`steps.${index}.wait.value`, { valueAsNumber: true })} />
          </FormField>
          <FormField label={t`Unit`} error={errors?.wait?.unit?.message}>
            <NativeSelect {...form.register(`steps.${index}.wait.unit`)}>
              {CYCLE_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {i18n._(UNIT_LABELS[unit])}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
        <p className="text-xs text-muted-foreground">
          {index === 0 ? t`Starts ${waitShown} after the contact is added to the cycle.` : t`Starts ${waitShown} after the last action of step ${index}.`}
        </p>
      </Card>
    </li>
  );
}

function CycleEditor({ cycle }: { cycle: ShippingCycleAnswer | null }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const save = useSaveCycle();
  const remove = useDeleteCycle();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const flowsQuery = useQuery(cycleFlowsQuery());
  const form: CycleForm = useForm<ShippingCycleInput, unknown, ShippingCycleInput>({ resolver: zodResolver(shippingCycleInput), defaultValues: initialValues(cycle) });
  const steps = useFieldArray({ control: form.control, name: "steps" });
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // Published flows, plus any flow a step already names (e.g. one unpublished since), by name.
  const published = (flowsQuery.data ?? []).filter((flow) => flow.publishedVersion !== null).map((flow) => ({ id: flow.id, name: flow.name }));
  const known = new Set(published.map((flow) => flow.id));
  const extra = (cycle?.steps ?? []).filter((step) => !known.has(step.flowId)).map((step) => ({ id: step.flowId, name: step.flowName ?? t`Deleted flow` }));
  const flows = [...published, ...extra.filter((flow, i, all) => all.findIndex((other) => other.id === flow.id) === i)];
  const { errors } = form.formState;

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = steps.fields.findIndex((field) => field.id === active.id);
    const to = steps.fields.findIndex((field) => field.id === over.id);
    if (from >= 0 && to >= 0) steps.move(from, to);
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(cycle ? { id: cycle.id, input: values } : { id: null, input: values });
      if (!cycle) void navigate(`/shipping-cycle/${encodeURIComponent(saved.id)}`, { replace: true });
      else form.reset(initialValues(saved));
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "active", "steps", ...steps.fields.flatMap((_, i) => [`steps.${i}.flowId` as const, `steps.${i}.wait.value` as const])]);
    }
  });

  const name = cycle?.name ?? "";
  const enrolled = cycle?.enrolledCount ?? 0;
  return (
    <form onSubmit={submit} noValidate className="grid max-w-2xl gap-4">
      <div className="grid gap-2">
        <Button asChild variant="link" className="h-auto justify-self-start p-0 text-muted-foreground">
          <Link to="/shipping-cycle">
            <ArrowLeft />
            {t`Shipping cycles`}
          </Link>
        </Button>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="min-w-0 truncate text-2xl font-semibold tracking-tight">{cycle ? name : t`New shipping cycle`}</h1>
          {cycle ? (
            <p className="text-sm text-muted-foreground">
              <Plural value={enrolled} one="# contact enrolled" other="# contacts enrolled" />
            </p>
          ) : null}
        </div>
      </div>
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <Card className="grid gap-4 p-4">
        <FormField label={t`Name`} error={errors.name?.message}>
          <Input autoFocus={!cycle} {...form.register("name")} />
        </FormField>
        <div className="flex items-center justify-between gap-3">
          <div className="grid gap-0.5">
            <Label htmlFor="cycle-active">{t`Turned on`}</Label>
            <p className="text-xs text-muted-foreground">{t`While off, contacts stay in the cycle but no step runs.`}</p>
          </div>
          <Controller control={form.control} name="active" render={({ field }) => <Switch id="cycle-active" checked={field.value ?? true} onCheckedChange={field.onChange} />} />
        </div>
      </Card>
      <section className="grid gap-3" aria-label={t`Steps`}>
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{t`Steps`}</h2>
          <Button type="button" variant="outline" size="sm" disabled={steps.fields.length >= MAX_CYCLE_STEPS} onClick={() => steps.append({ flowId: "", wait: { value: 1, unit: "day" } })}>
            <Plus />
            {t`Add step`}
          </Button>
        </div>
        {flowsQuery.isError ? <Alert variant="destructive">{t`Could not load the flows`}</Alert> : null}
        {!flowsQuery.isPending && !flowsQuery.isError && published.length === 0 ? <p className="text-sm text-muted-foreground">{t`Publish a flow first: a step starts a published flow.`}</p> : null}
        {errors.steps?.message || errors.steps?.root?.message ? <p className="text-xs font-medium text-destructive">{t`Add at least one step.`}</p> : null}
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={steps.fields.map((field) => field.id)} strategy={verticalListSortingStrategy}>
            <ol className="grid gap-3" aria-label={t`Steps`}>
              {steps.fields.map((field, index) => (
                <StepCard
                  key={field.id}
                  id={field.id}
                  index={index}
                  count={steps.fields.length}
                  form={form}
                  flows={flows}
                  onMove={(to) => steps.move(index, to)}
                  onRemove={() => steps.remove(index)}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      </section>
      <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-between">
        {cycle ? (
          <Button type="button" variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirmingDelete(true)}>
            <Trash2 />
            {t`Delete cycle`}
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {cycle ? t`Save changes` : t`Create cycle`}
        </Button>
      </div>
      {cycle ? (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={setConfirmingDelete}
          title={t`Delete the shipping cycle ${name}?`}
          description={t`Contacts in it receive no further steps. This cannot be undone.`}
          confirmLabel={t`Delete`}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(cycle.id, {
              onSuccess: () => void navigate("/shipping-cycle", { replace: true }),
              onError: (error) => {
                setConfirmingDelete(false);
                notifyError(error);
              },
            })
          }
        />
      ) : null}
    </form>
  );
}

/** The cycle editor screen. */
export function ShippingCyclePage() {
  const { t } = useLingui();
  const { id = "" } = useParams();
  const isNew = id === "new";
  const cycle = useCycle(isNew ? null : id);
  if (isNew) return <CycleEditor key="new" cycle={null} />;
  if (cycle.isPending) {
    return (
      <div className="grid max-w-2xl gap-4" aria-busy>
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-40 w-full" />
        <span className="sr-only">{t`Loading the shipping cycle…`}</span>
      </div>
    );
  }
  if (cycle.isError) {
    if (isNotFound(cycle.error)) return <NotFoundPage />;
    return (
      <Card>
        <ErrorState title={t`Could not load the shipping cycle.`} onRetry={() => void cycle.refetch()} />
      </Card>
    );
  }
  return <CycleEditor key={cycle.data.id} cycle={cycle.data} />;
}
