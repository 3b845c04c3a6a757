/**
 * One form per block type (spec §3 Block fields), each on its type's zod schema from schema/flows
 * with react-hook-form + zodResolver. Values apply to the canvas as they change (invalid values
 * show their error and are not applied); undo/redo reloads the form.
 */
import { Controller, useFieldArray, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { TimeField } from "@/components/ui/time-field";
import { MultiSelect } from "@/components/ui/multi-select";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import {
  actionBlockSchema,
  audioBlockSchema,
  conditionBlockSchema,
  contactBlockSchema,
  delayBlockSchema,
  facebookPixelBlockSchema,
  flowConnectionBlockSchema,
  HTTP_METHODS,
  imageBlockSchema,
  integrationBlockSchema,
  linkBlockSchema,
  listBlockSchema,
  MAX_CAPTION_LENGTH,
  MAX_LIST_RESPONSES,
  MAX_NUMBER_OPTIONS,
  MAX_REPLY_BUTTONS,
  notificationBlockSchema,
  numberBlockSchema,
  PIXEL_STANDARD_EVENTS,
  randomBlockSchema,
  receiveBlockSchema,
  rotaryBlockSchema,
  saveBlockSchema,
  startBlockSchema,
  textBlockSchema,
  type BlockNode,
  type ConditionRule,
  type FlowAction,
} from "../../../../../../schema/flows";
import { everyFlowQuery, flowCyclesQuery, flowMembersQuery } from "../../api/flows-api";
import { newId, type EditorNode } from "../../lib/document";
import { ACTION_KIND_LABELS, CONDITION_KIND_LABELS, FIELD_OP_LABELS, INDICATOR_LABELS, TAG_OP_LABELS, WEEKDAY_LABELS } from "../../lib/labels";
import { useEditor } from "../../store/editor-store";
import { BlockDescription, BlockFields, BlockMediaField, BlockWaitFields, FieldSelect, ItemList, KindSelect, LabelOptions, MessageField, useBlockForm, useFieldOptions, type MediaKind } from "./form-parts";

const optionId = () => newId("");
const FORMULA_EXAMPLE = "{{price}} * 1.1";
const VARIABLE_EXAMPLE = "{{first_name}}";
const JSON_EXAMPLE = '{"email": "{{email}}"}';

function StartForm({ node }: { node: BlockNode<"start"> }) {
  const { form } = useBlockForm(node, startBlockSchema);
  return <BlockDescription form={form} />;
}

function TextForm({ node }: { node: BlockNode<"text"> }) {
  const { form, errors } = useBlockForm(node, textBlockSchema);
  return (
    <BlockFields form={form}>
      <MessageField registration={form.register("message")} error={errors.message?.message} rows={6} />
    </BlockFields>
  );
}

function CaptionedMediaForm({ node, kind }: { node: BlockNode<"image" | "video" | "file">; kind: MediaKind }) {
  const { t } = useLingui();
  const { form, errors } = useBlockForm(node, imageBlockSchema);
  return (
    <BlockFields form={form}>
      <BlockMediaField form={form} kind={kind} />
      <MessageField label={t`Caption`} registration={form.register("message")} error={errors.message?.message} rows={3} maxLength={MAX_CAPTION_LENGTH} />
    </BlockFields>
  );
}

function PlainMediaForm({ node, kind }: { node: BlockNode<"audio" | "ptv">; kind: MediaKind }) {
  const { form } = useBlockForm(node, audioBlockSchema);
  return (
    <BlockFields form={form}>
      <BlockMediaField form={form} kind={kind} />
    </BlockFields>
  );
}

function ContactForm({ node }: { node: BlockNode<"contact"> }) {
  const { t } = useLingui();
  const { form, errors } = useBlockForm(node, contactBlockSchema);
  return (
    <BlockFields form={form}>
      <FormField label={t`Organization`} error={errors.organization?.message}>
        <Input maxLength={120} {...form.register("organization")} />
      </FormField>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input maxLength={120} {...form.register("name")} />
      </FormField>
      <FormField label={t`Phone`} error={errors.phone?.message}>
        <Input type="tel" maxLength={32} {...form.register("phone")} />
      </FormField>
    </BlockFields>
  );
}

function LinkForm({ node }: { node: BlockNode<"link"> }) {
  const { t } = useLingui();
  const { form, values, errors } = useBlockForm(node, linkBlockSchema);
  const buttons = useFieldArray({ control: form.control, name: "buttons", keyName: "key" });
  const mode = values.mode ?? "url";
  return (
    <BlockFields form={form}>
      <FormField label={t`Kind of button`}>
        <NativeSelect {...form.register("mode")}>
          <option value="url">{t`Link button (opens an address)`}</option>
          <option value="buttons">{t`Reply buttons (up to 3)`}</option>
        </NativeSelect>
      </FormField>
      <MessageField registration={form.register("message")} error={errors.message?.message} />
      {mode === "url" ? (
        <>
          <FormField label={t`Button text`} error={errors.buttonText?.message}>
            <Input maxLength={20} {...form.register("buttonText")} />
          </FormField>
          <FormField label={t`Link`} error={errors.url?.message}>
            <Input type="url" placeholder="https://" maxLength={2048} {...form.register("url")} />
          </FormField>
        </>
      ) : (
        <>
          <ItemList
            title={t`Buttons`}
            list={buttons}
            max={MAX_REPLY_BUTTONS}
            addLabel={t`Add button`}
            onAdd={() => buttons.append({ id: optionId(), title: "" })}
            removeLabel={(position) => t`Remove button ${position}`}
            empty={t`Each button gets its own output.`}
            row={(index, position) => (
              <FormField label={t`Button ${position}`} error={errors.buttons?.[index]?.title?.message} className="flex-1">
                <Input maxLength={20} {...form.register(`buttons.${index}.title`)} />
              </FormField>
            )}
          />
          <BlockWaitFields form={form} />
        </>
      )}
      <FormField label={t`Footer`} error={errors.footer?.message}>
        <Input maxLength={60} {...form.register("footer")} />
      </FormField>
    </BlockFields>
  );
}

function ListForm({ node }: { node: BlockNode<"list"> }) {
  const { t } = useLingui();
  const { form, errors } = useBlockForm(node, listBlockSchema);
  const responses = useFieldArray({ control: form.control, name: "responses", keyName: "key" });
  return (
    <BlockFields form={form}>
      <MessageField registration={form.register("message")} error={errors.message?.message} />
      <FormField label={t`Button text`} error={errors.buttonText?.message} hint={t`Opens the list on the contact's phone.`}>
        <Input maxLength={20} {...form.register("buttonText")} />
      </FormField>
      <FormField label={t`Section title`} error={errors.sectionTitle?.message}>
        <Input maxLength={24} {...form.register("sectionTitle")} />
      </FormField>
      <ItemList
        title={t`Responses`}
        list={responses}
        max={MAX_LIST_RESPONSES}
        addLabel={t`Add response`}
        onAdd={() => responses.append({ id: optionId(), title: "", description: "" })}
        removeLabel={(position) => t`Remove response ${position}`}
        row={(index, position) => (
          <FormField label={t`Response ${position}`} error={errors.responses?.[index]?.title?.message} className="flex-1">
            <Input maxLength={24} {...form.register(`responses.${index}.title`)} />
          </FormField>
        )}
        details={(index, position) => (
          <FormField label={t`Response ${position} description`} error={errors.responses?.[index]?.description?.message}>
            <Input maxLength={72} {...form.register(`responses.${index}.description`)} />
          </FormField>
        )}
      />
      <BlockWaitFields form={form} />
    </BlockFields>
  );
}

function NumberForm({ node }: { node: BlockNode<"number"> }) {
  const { t } = useLingui();
  const { form, errors } = useBlockForm(node, numberBlockSchema);
  const options = useFieldArray({ control: form.control, name: "options", keyName: "key" });
  return (
    <BlockFields form={form}>
      <MessageField registration={form.register("message")} error={errors.message?.message} />
      <ItemList
        title={t`Options`}
        list={options}
        max={MAX_NUMBER_OPTIONS}
        addLabel={t`Add option`}
        onAdd={() => options.append({ id: optionId(), title: "" })}
        removeLabel={(position) => t`Remove option ${position}`}
        row={(index, position) => (
          <FormField label={t`Option ${position}`} error={errors.options?.[index]?.title?.message} className="flex-1">
            <Input maxLength={100} {...form.register(`options.${index}.title`)} />
          </FormField>
        )}
      />
      <BlockWaitFields form={form} />
    </BlockFields>
  );
}

function ReceiveForm({ node }: { node: BlockNode<"receive"> }) {
  const { t } = useLingui();
  const { form, values, errors } = useBlockForm(node, receiveBlockSchema);
  const fields = useFieldOptions();
  return (
    <BlockFields form={form}>
      <MessageField label={t`Question (optional)`} registration={form.register("message")} error={errors.message?.message} rows={3} />
      <FormField label={t`Save the answer into`} error={errors.fieldKey?.message} hint={t`The answer is checked by the field's type (number, date, email…). Without a field, any answer is accepted.`}>
        <FieldSelect registration={form.register("fieldKey")} fields={fields} current={values.fieldKey ?? ""} disabled={fields.loading} />
      </FormField>
      <BlockWaitFields form={form} />
    </BlockFields>
  );
}

function SaveForm({ node }: { node: BlockNode<"save"> }) {
  const { t } = useLingui();
  const { form, values, errors } = useBlockForm(node, saveBlockSchema);
  const fields = useFieldOptions();
  return (
    <BlockFields form={form}>
      <FormField label={t`Field`} error={errors.fieldKey?.message}>
        <FieldSelect registration={form.register("fieldKey")} fields={fields} current={values.fieldKey ?? ""} disabled={fields.loading} />
      </FormField>
      <FormField label={t`Kind of value`}>
        <NativeSelect {...form.register("mode")}>
          <option value="value">{t`A value (with variables)`}</option>
          <option value="formula">{t`A formula`}</option>
        </NativeSelect>
      </FormField>
      <FormField label={t`Value`} error={errors.value?.message} hint={values.mode === "formula" ? t`For example ${FORMULA_EXAMPLE}` : t`Variables such as ${VARIABLE_EXAMPLE} are filled in.`}>
        <Input maxLength={1000} {...form.register("value")} />
      </FormField>
    </BlockFields>
  );
}

function DelayForm({ node }: { node: BlockNode<"delay"> }) {
  const { t, i18n } = useLingui();
  const { form, errors } = useBlockForm(node, delayBlockSchema);
  return (
    <BlockFields form={form}>
      <FormField label={t`Seconds`} error={errors.seconds?.message}>
        <Input type="number" min={1} {...form.register("seconds", { valueAsNumber: true })} />
      </FormField>
      <FormField label={t`Indicator`} hint={t`Shown to the contact during the last 25 seconds of the wait.`}>
        <NativeSelect {...form.register("indicator")}>
          {(["typing", "recording", "none"] as const).map((indicator) => (
            <option key={indicator} value={indicator}>
              {i18n._(INDICATOR_LABELS[indicator])}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </BlockFields>
  );
}

function NotificationForm({ node }: { node: BlockNode<"notification"> }) {
  const { t } = useLingui();
  const { form, errors } = useBlockForm(node, notificationBlockSchema);
  const members = useQuery(flowMembersQuery());
  const options = (members.data ?? []).map((member) => ({ value: member.id, label: member.name || member.email }));
  return (
    <BlockFields form={form}>
      <Controller
        control={form.control}
        name="memberIds"
        render={({ field }) => (
          <FormField label={t`Members to notify`} error={errors.memberIds?.message}>
            <MultiSelect
              options={options}
              value={field.value ?? []}
              onValueChange={field.onChange}
              placeholder={members.isPending ? t`Loading members…` : t`Choose members`}
              searchLabel={t`Search members`}
              emptyText={t`No members found.`}
            />
          </FormField>
        )}
      />
      <MessageField registration={form.register("message")} error={errors.message?.message} />
    </BlockFields>
  );
}

/** The outputs of the random and rotary blocks; `weighted` adds each output's weight (random). */
function OutputList<Input extends { outputs?: { id?: string; label?: string; weight?: number }[] }, Output>({ form, weighted }: { form: UseFormReturn<Input, unknown, Output>; weighted?: boolean }) {
  const { t } = useLingui();
  const withOutputs = form as unknown as UseFormReturn<z.input<typeof randomBlockSchema>>;
  const outputs = useFieldArray({ control: withOutputs.control, name: "outputs", keyName: "key" });
  const { errors } = withOutputs.formState;
  return (
    <ItemList
      title={t`Outputs`}
      list={outputs}
      max={10}
      addLabel={t`Add output`}
      onAdd={() => outputs.append(weighted ? { id: optionId(), label: "", weight: 1 } : { id: optionId(), label: "" })}
      removeLabel={(position) => t`Remove output ${position}`}
      row={(index, position) => (
        <>
          <FormField label={t`Output ${position}`} error={errors.outputs?.[index]?.label?.message} className="flex-1">
            <Input maxLength={60} {...withOutputs.register(`outputs.${index}.label`)} />
          </FormField>
          {weighted ? (
            <FormField label={t`Weight`} error={errors.outputs?.[index]?.weight?.message} className="w-24">
              <Input type="number" min={1} max={100} {...withOutputs.register(`outputs.${index}.weight`, { valueAsNumber: true })} />
            </FormField>
          ) : null}
        </>
      )}
    />
  );
}

function RandomForm({ node }: { node: BlockNode<"random"> }) {
  const { form } = useBlockForm(node, randomBlockSchema);
  return (
    <BlockFields form={form}>
      <OutputList form={form} weighted />
    </BlockFields>
  );
}

function RotaryForm({ node }: { node: BlockNode<"rotary"> }) {
  const { form } = useBlockForm(node, rotaryBlockSchema);
  return (
    <BlockFields form={form}>
      <OutputList form={form} />
    </BlockFields>
  );
}

/** A new action of `kind` with empty settings. */
function emptyAction(kind: FlowAction["kind"]): FlowAction {
  switch (kind) {
    case "add_tag":
    case "remove_tag":
      return { kind, tag: "" };
    case "transfer_ticket":
      return { kind, memberId: null };
    case "custom_event":
      return { kind, name: "" };
    case "add_to_cycle":
      return { kind, cycleId: "" };
    default:
      return { kind };
  }
}

function isActionKind(value: string): value is FlowAction["kind"] {
  return value in ACTION_KIND_LABELS;
}

function ActionForm({ node }: { node: BlockNode<"action"> }) {
  const { t } = useLingui();
  const { form, values } = useBlockForm(node, actionBlockSchema);
  const actions = useFieldArray({ control: form.control, name: "actions", keyName: "key" });
  const members = useQuery(flowMembersQuery());
  const usesCycles = (values.actions ?? []).some((action) => action?.kind === "add_to_cycle");
  const cycles = useQuery({ ...flowCyclesQuery(), enabled: usesCycles });
  return (
    <BlockFields form={form}>
      <ItemList
        title={t`Actions`}
        list={actions}
        max={20}
        addLabel={t`Add action`}
        onAdd={() => actions.append(emptyAction("add_tag"))}
        removeLabel={(position) => t`Remove action ${position}`}
        row={(index, position) => (
          <KindSelect label={t`Action ${position}`} value={values.actions?.[index]?.kind ?? "add_tag"} labels={ACTION_KIND_LABELS} isKind={isActionKind} onKind={(kind) => actions.update(index, emptyAction(kind))} />
        )}
        details={(index) => {
          const current = values.actions?.[index];
          return (
            <>
              {current?.kind === "add_tag" || current?.kind === "remove_tag" ? (
                <FormField label={t`Tag`} error={form.getFieldState(`actions.${index}.tag`, form.formState).error?.message}>
                  <Input maxLength={60} {...form.register(`actions.${index}.tag`)} />
                </FormField>
              ) : null}
              {current?.kind === "custom_event" ? (
                <FormField label={t`Event name`} error={form.getFieldState(`actions.${index}.name`, form.formState).error?.message}>
                  <Input maxLength={100} {...form.register(`actions.${index}.name`)} />
                </FormField>
              ) : null}
              {current?.kind === "add_to_cycle" ? (
                <FormField label={t`Shipping cycle`} error={form.getFieldState(`actions.${index}.cycleId`, form.formState).error?.message}>
                  <NativeSelect value={current.cycleId} onChange={(event) => actions.update(index, { kind: "add_to_cycle", cycleId: event.target.value })}>
                    <option value="">{cycles.isError ? t`Could not load the shipping cycles.` : t`Choose a shipping cycle`}</option>
                    {(cycles.data ?? []).map((cycle) => (
                      <option key={cycle.id} value={cycle.id}>
                        {cycle.name}
                      </option>
                    ))}
                    {current.cycleId && !(cycles.data ?? []).some((cycle) => cycle.id === current.cycleId) ? <option value={current.cycleId}>{current.cycleId}</option> : null}
                  </NativeSelect>
                </FormField>
              ) : null}
              {current?.kind === "transfer_ticket" ? (
                <FormField label={t`Transfer to`}>
                  <NativeSelect value={current.memberId ?? ""} onChange={(event) => actions.update(index, { kind: "transfer_ticket", memberId: event.target.value || null })}>
                    <option value="">{t`The queue (no member)`}</option>
                    {(members.data ?? []).map((member) => (
                      <option key={member.id} value={member.id}>
                        {member.name || member.email}
                      </option>
                    ))}
                    {current.memberId && !(members.data ?? []).some((member) => member.id === current.memberId) ? <option value={current.memberId}>{current.memberId}</option> : null}
                  </NativeSelect>
                </FormField>
              ) : null}
            </>
          );
        }}
      />
    </BlockFields>
  );
}

/** A new test of `kind` with empty settings. */
function emptyRule(kind: ConditionRule["kind"]): ConditionRule {
  switch (kind) {
    case "field":
      return { kind, key: "", op: "equals", value: "" };
    case "tag":
      return { kind, op: "has", tag: "" };
    case "weekday":
      return { kind, days: [1, 2, 3, 4, 5] };
    case "time":
      return { kind, from: "08:00", to: "18:00" };
  }
}

function isRuleKind(value: string): value is ConditionRule["kind"] {
  return value in CONDITION_KIND_LABELS;
}

function ConditionForm({ node }: { node: BlockNode<"condition"> }) {
  const { t, i18n } = useLingui();
  const { form, values } = useBlockForm(node, conditionBlockSchema);
  const rules = useFieldArray({ control: form.control, name: "rules", keyName: "key" });
  const fields = useFieldOptions();
  return (
    <BlockFields form={form}>
      <FormField label={t`Go on by "True" when`}>
        <NativeSelect {...form.register("match")}>
          <option value="all">{t`all the tests hold`}</option>
          <option value="any">{t`any test holds`}</option>
        </NativeSelect>
      </FormField>
      <ItemList
        title={t`Tests`}
        list={rules}
        max={20}
        addLabel={t`Add test`}
        onAdd={() => rules.append(emptyRule("field"))}
        removeLabel={(position) => t`Remove test ${position}`}
        empty={t`Without tests the condition always holds.`}
        row={(index, position) => (
          <KindSelect label={t`Test ${position}`} value={values.rules?.[index]?.kind ?? "field"} labels={CONDITION_KIND_LABELS} isKind={isRuleKind} onKind={(kind) => rules.update(index, emptyRule(kind))} />
        )}
        details={(index, position) => {
          const rule = values.rules?.[index];
          return (
            <>
              {rule?.kind === "field" ? (
                <>
                  <FormField label={t`Field of test ${position}`}>
                    <FieldSelect registration={form.register(`rules.${index}.key`)} fields={fields} current={rule.key ?? ""} disabled={fields.loading} />
                  </FormField>
                  <FormField label={t`Comparison`}>
                    <NativeSelect {...form.register(`rules.${index}.op`)}>
                      <LabelOptions labels={FIELD_OP_LABELS} />
                    </NativeSelect>
                  </FormField>
                  {rule.op !== "empty" && rule.op !== "not_empty" ? (
                    <FormField label={t`Compared value`}>
                      <Input maxLength={1000} {...form.register(`rules.${index}.value`)} />
                    </FormField>
                  ) : null}
                </>
              ) : null}
              {rule?.kind === "tag" ? (
                <>
                  <FormField label={t`Comparison`}>
                    <NativeSelect {...form.register(`rules.${index}.op`)}>
                      <LabelOptions labels={TAG_OP_LABELS} />
                    </NativeSelect>
                  </FormField>
                  <FormField label={t`Tag`}>
                    <Input maxLength={60} {...form.register(`rules.${index}.tag`)} />
                  </FormField>
                </>
              ) : null}
              {rule?.kind === "weekday" ? (
                <Controller
                  control={form.control}
                  name={`rules.${index}.days`}
                  render={({ field: days }) => {
                    const chosen: number[] = Array.isArray(days.value) ? days.value : [];
                    return (
                      <div role="group" aria-label={t`Days`} className="flex flex-wrap gap-1">
                        {WEEKDAY_LABELS.map((label, day) => (
                          <button
                            key={day}
                            type="button"
                            aria-pressed={chosen.includes(day)}
                            onClick={() => days.onChange(chosen.includes(day) ? chosen.filter((d) => d !== day) : [...chosen, day].sort())}
                            className={cn(
                              "rounded-md border px-2 py-1 text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring",
                              chosen.includes(day) ? "border-primary bg-primary text-primary-foreground" : "bg-background",
                            )}
                          >
                            {i18n._(label)}
                          </button>
                        ))}
                      </div>
                    );
                  }}
                />
              ) : null}
              {rule?.kind === "time" ? (
                <div className="grid grid-cols-2 gap-2">
                  <Controller
                    control={form.control}
                    name={`rules.${index}.from`}
                    render={({ field }) => (
                      <FormField label={t`From`}>
                        <TimeField value={typeof field.value === "string" ? field.value : ""} onChange={field.onChange} onBlur={field.onBlur} ref={field.ref} className="w-full" />
                      </FormField>
                    )}
                  />
                  <Controller
                    control={form.control}
                    name={`rules.${index}.to`}
                    render={({ field }) => (
                      <FormField label={t`To`}>
                        <TimeField value={typeof field.value === "string" ? field.value : ""} onChange={field.onChange} onBlur={field.onBlur} ref={field.ref} className="w-full" />
                      </FormField>
                    )}
                  />
                </div>
              ) : null}
            </>
          );
        }}
      />
      <p className="text-xs text-muted-foreground">{t`Days and times are in the company's time zone.`}</p>
    </BlockFields>
  );
}

function FlowConnectionForm({ node }: { node: BlockNode<"flow_connection"> }) {
  const { t } = useLingui();
  const flowId = useEditor((state) => state.flowId);
  const { form, errors } = useBlockForm(node, flowConnectionBlockSchema);
  const flows = useQuery(everyFlowQuery());
  return (
    <BlockFields form={form}>
      <FormField label={t`Continue in`} error={errors.flowId?.message} hint={t`The run goes on in that flow's published version, from its start.`}>
        <NativeSelect {...form.register("flowId")} disabled={flows.isPending}>
          <option value="">{t`Choose a flow`}</option>
          {(flows.data ?? [])
            .filter((flow) => flow.id !== flowId)
            .map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.name}
              </option>
            ))}
        </NativeSelect>
      </FormField>
    </BlockFields>
  );
}

function IntegrationForm({ node }: { node: BlockNode<"integration"> }) {
  const { t } = useLingui();
  const { form, values, errors } = useBlockForm(node, integrationBlockSchema);
  const headers = useFieldArray({ control: form.control, name: "headers", keyName: "key" });
  const saves = useFieldArray({ control: form.control, name: "save", keyName: "key" });
  const fields = useFieldOptions();
  return (
    <BlockFields form={form}>
      <div className="grid grid-cols-[7rem_1fr] gap-2">
        <FormField label={t`Method`}>
          <NativeSelect {...form.register("method")}>
            {HTTP_METHODS.map((method) => (
              <option key={method} value={method}>
                {method}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label={t`URL`} error={errors.url?.message}>
          <Input type="url" placeholder="https://" maxLength={2048} {...form.register("url")} />
        </FormField>
      </div>
      <p className="text-xs text-muted-foreground">{t`Only public http(s) addresses are called; the request times out after 10 seconds.`}</p>
      <ItemList
        title={t`Headers`}
        list={headers}
        max={20}
        addLabel={t`Add header`}
        onAdd={() => headers.append({ name: "", value: "" })}
        removeLabel={(position) => t`Remove header ${position}`}
        row={(index, position) => (
          <>
            <FormField label={t`Header ${position} name`} className="flex-1">
              <Input maxLength={100} {...form.register(`headers.${index}.name`)} />
            </FormField>
            <FormField label={t`Header ${position} value`} className="flex-1">
              <Input maxLength={2000} {...form.register(`headers.${index}.value`)} />
            </FormField>
          </>
        )}
      />
      {values.method !== "GET" ? (
        <FormField label={t`Body`} error={errors.body?.message} hint={t`JSON with variables such as ${JSON_EXAMPLE}.`}>
          <Textarea rows={5} className="font-mono text-xs" maxLength={10_000} {...form.register("body")} />
        </FormField>
      ) : null}
      <ItemList
        title={t`Save from the answer`}
        list={saves}
        max={20}
        addLabel={t`Add value`}
        onAdd={() => saves.append({ path: "", fieldKey: "" })}
        removeLabel={(position) => t`Remove value ${position}`}
        row={(index, position) => (
          <>
            <FormField label={t`Path ${position}`} className="flex-1" hint={index === 0 ? "data.items.0.name" : undefined}>
              <Input maxLength={200} {...form.register(`save.${index}.path`)} />
            </FormField>
            <FormField label={t`Into field ${position}`} className="flex-1">
              <FieldSelect registration={form.register(`save.${index}.fieldKey`)} fields={fields} current={values.save?.[index]?.fieldKey ?? ""} />
            </FormField>
          </>
        )}
      />
    </BlockFields>
  );
}

function FacebookPixelForm({ node }: { node: BlockNode<"facebook_pixel"> }) {
  const { t } = useLingui();
  const { form, errors } = useBlockForm(node, facebookPixelBlockSchema);
  return (
    <BlockFields form={form}>
      <FormField label={t`Pixel ID`} error={errors.pixelId?.message}>
        <Input inputMode="numeric" maxLength={32} {...form.register("pixelId")} />
      </FormField>
      <FormField label={t`Conversions API access token`} error={errors.accessToken?.message} hint={t`Kept secret: shared copies of the flow leave it empty.`}>
        <Input type="password" autoComplete="off" maxLength={512} {...form.register("accessToken")} />
      </FormField>
      <FormField label={t`Event`} error={errors.eventName?.message} hint={t`A standard event, or any name for a custom event.`}>
        <Input list={`pixel-events-${node.id}`} maxLength={50} {...form.register("eventName")} />
      </FormField>
      <datalist id={`pixel-events-${node.id}`}>
        {PIXEL_STANDARD_EVENTS.map((event) => (
          <option key={event} value={event} />
        ))}
      </datalist>
      <div className="grid grid-cols-2 gap-2">
        <FormField label={t`Value`} error={errors.value?.message}>
          <Input type="number" min={0} step="0.01" {...form.register("value", { setValueAs: (raw: unknown) => (raw === "" || raw === null ? null : Number(raw)) })} />
        </FormField>
        <FormField label={t`Currency`} error={errors.currency?.message}>
          <Input maxLength={3} placeholder="BRL" {...form.register("currency", { setValueAs: (raw: unknown) => (typeof raw === "string" ? raw.toUpperCase() : raw) })} />
        </FormField>
      </div>
      <FormField label={t`Test event code`} error={errors.testEventCode?.message}>
        <Input maxLength={50} {...form.register("testEventCode")} />
      </FormField>
    </BlockFields>
  );
}

/** The form of a block, by its type. */
export function BlockForm({ node }: { node: EditorNode }) {
  switch (node.type) {
    case "start":
      return <StartForm node={node} />;
    case "text":
      return <TextForm node={node} />;
    case "image":
      return <CaptionedMediaForm node={node} kind="image" />;
    case "video":
      return <CaptionedMediaForm node={node} kind="video" />;
    case "file":
      return <CaptionedMediaForm node={node} kind="file" />;
    case "audio":
      return <PlainMediaForm node={node} kind="audio" />;
    case "ptv":
      return <PlainMediaForm node={node} kind="ptv" />;
    case "contact":
      return <ContactForm node={node} />;
    case "link":
      return <LinkForm node={node} />;
    case "list":
      return <ListForm node={node} />;
    case "number":
      return <NumberForm node={node} />;
    case "receive":
      return <ReceiveForm node={node} />;
    case "save":
      return <SaveForm node={node} />;
    case "delay":
      return <DelayForm node={node} />;
    case "notification":
      return <NotificationForm node={node} />;
    case "random":
      return <RandomForm node={node} />;
    case "rotary":
      return <RotaryForm node={node} />;
    case "action":
      return <ActionForm node={node} />;
    case "condition":
      return <ConditionForm node={node} />;
    case "flow_connection":
      return <FlowConnectionForm node={node} />;
    case "integration":
      return <IntegrationForm node={node} />;
    case "facebook_pixel":
      return <FacebookPixelForm node={node} />;
  }
}
