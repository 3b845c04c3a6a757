/**
 * One form per block type (spec §3 Block fields), each on its type's zod schema from schema/flows
 * with react-hook-form + zodResolver. Values apply to the canvas as they change (invalid values
 * show their error and are not applied); undo/redo reloads the form.
 */
import type { ReactNode } from "react";
import { Controller, useFieldArray, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
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
import { everyFlowQuery, flowMembersQuery } from "../../api/flows-api";
import { newId, type EditorNode } from "../../lib/document";
import { ACTION_KIND_LABELS, CONDITION_KIND_LABELS, FIELD_OP_LABELS, INDICATOR_LABELS, TAG_OP_LABELS, WEEKDAY_LABELS } from "../../lib/labels";
import { useEditor } from "../../store/editor-store";
import { DescriptionField, DurationInput, FieldOptions, MediaField, MessageField, Section, useApply, useErrorFields, useFieldOptions, WaitFields, type MediaKind } from "./form-parts";

const optionId = () => newId("");
const FORMULA_EXAMPLE = "{{price}} * 1.1";
const VARIABLE_EXAMPLE = "{{first_name}}";
const JSON_EXAMPLE = '{"email": "{{email}}"}';

function Fields({ children }: { children: ReactNode }) {
  return <div className="grid gap-4">{children}</div>;
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button type="button" variant="ghost" size="icon" className="size-8 shrink-0 text-muted-foreground hover:text-destructive" aria-label={label} onClick={onClick}>
      <Trash2 />
    </Button>
  );
}

function AddButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button type="button" variant="outline" size="sm" onClick={onClick} disabled={disabled}>
      <Plus />
      {label}
    </Button>
  );
}

function StartForm({ node }: { node: BlockNode<"start"> }) {
  const form = useForm({ resolver: zodResolver(startBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  return <DescriptionField registration={form.register("description")} error={form.formState.errors.description?.message} />;
}

function TextForm({ node }: { node: BlockNode<"text"> }) {
  const form = useForm({ resolver: zodResolver(textBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const { errors } = form.formState;
  return (
    <Fields>
      <MessageField registration={form.register("message")} error={errors.message?.message} rows={6} />
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function CaptionedMediaForm({ node, kind }: { node: BlockNode<"image" | "video" | "file">; kind: MediaKind }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(imageBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const { errors } = form.formState;
  return (
    <Fields>
      <Controller control={form.control} name="media" render={({ field }) => <MediaField kind={kind} value={{ url: field.value?.url ?? "", mime: field.value?.mime ?? "", fileName: field.value?.fileName }} onChange={field.onChange} />} />
      <MessageField label={t`Caption`} registration={form.register("message")} error={errors.message?.message} rows={3} maxLength={MAX_CAPTION_LENGTH} />
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function PlainMediaForm({ node, kind }: { node: BlockNode<"audio" | "ptv">; kind: MediaKind }) {
  const form = useForm({ resolver: zodResolver(audioBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  return (
    <Fields>
      <Controller control={form.control} name="media" render={({ field }) => <MediaField kind={kind} value={{ url: field.value?.url ?? "", mime: field.value?.mime ?? "", fileName: field.value?.fileName }} onChange={field.onChange} />} />
      <DescriptionField registration={form.register("description")} error={form.formState.errors.description?.message} />
    </Fields>
  );
}

function ContactForm({ node }: { node: BlockNode<"contact"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(contactBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const { errors } = form.formState;
  return (
    <Fields>
      <FormField label={t`Organization`} error={errors.organization?.message}>
        <Input maxLength={120} {...form.register("organization")} />
      </FormField>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input maxLength={120} {...form.register("name")} />
      </FormField>
      <FormField label={t`Phone`} error={errors.phone?.message}>
        <Input type="tel" maxLength={32} {...form.register("phone")} />
      </FormField>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function LinkForm({ node }: { node: BlockNode<"link"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(linkBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const buttons = useFieldArray({ control: form.control, name: "buttons", keyName: "key" });
  const { errors } = form.formState;
  const waits = useErrorFields({ messageRegistration: form.register("errorMessage"), limitRegistration: form.register("errorLimit", { valueAsNumber: true }), errors: { errorMessage: errors.errorMessage?.message, errorLimit: errors.errorLimit?.message } });
  const mode = values.mode ?? "url";
  return (
    <Fields>
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
          <Section
            title={t`Buttons`}
            action={<AddButton label={t`Add button`} disabled={buttons.fields.length >= MAX_REPLY_BUTTONS} onClick={() => buttons.append({ id: optionId(), title: "" })} />}
          >
            {buttons.fields.length === 0 ? <p className="text-xs text-muted-foreground">{t`Each button gets its own output.`}</p> : null}
            {buttons.fields.map((field, index) => {
              const position = index + 1;
              return (
                <div key={field.key} className="flex items-end gap-2">
                  <FormField label={t`Button ${position}`} error={errors.buttons?.[index]?.title?.message} className="flex-1">
                    <Input maxLength={20} {...form.register(`buttons.${index}.title`)} />
                  </FormField>
                  <RemoveButton label={t`Remove button ${position}`} onClick={() => buttons.remove(index)} />
                </div>
              );
            })}
          </Section>
          <WaitFields
            responseTime={values.responseTimeSeconds ?? null}
            onResponseTime={(seconds) => form.setValue("responseTimeSeconds", seconds, { shouldValidate: true })}
            errorMessage={waits.errorMessage}
            errorLimit={waits.errorLimit}
          />
        </>
      )}
      <FormField label={t`Footer`} error={errors.footer?.message}>
        <Input maxLength={60} {...form.register("footer")} />
      </FormField>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function ListForm({ node }: { node: BlockNode<"list"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(listBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const responses = useFieldArray({ control: form.control, name: "responses", keyName: "key" });
  const { errors } = form.formState;
  const waits = useErrorFields({ messageRegistration: form.register("errorMessage"), limitRegistration: form.register("errorLimit", { valueAsNumber: true }), errors: { errorMessage: errors.errorMessage?.message, errorLimit: errors.errorLimit?.message } });
  return (
    <Fields>
      <MessageField registration={form.register("message")} error={errors.message?.message} />
      <FormField label={t`Button text`} error={errors.buttonText?.message} hint={t`Opens the list on the contact's phone.`}>
        <Input maxLength={20} {...form.register("buttonText")} />
      </FormField>
      <FormField label={t`Section title`} error={errors.sectionTitle?.message}>
        <Input maxLength={24} {...form.register("sectionTitle")} />
      </FormField>
      <Section
        title={t`Responses`}
        action={<AddButton label={t`Add response`} disabled={responses.fields.length >= MAX_LIST_RESPONSES} onClick={() => responses.append({ id: optionId(), title: "", description: "" })} />}
      >
        {responses.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.key} className="grid gap-2 rounded-md bg-muted/40 p-2">
              <div className="flex items-end gap-2">
                <FormField label={t`Response ${position}`} error={errors.responses?.[index]?.title?.message} className="flex-1">
                  <Input maxLength={24} {...form.register(`responses.${index}.title`)} />
                </FormField>
                <RemoveButton label={t`Remove response ${position}`} onClick={() => responses.remove(index)} />
              </div>
              <FormField label={t`Response ${position} description`} error={errors.responses?.[index]?.description?.message}>
                <Input maxLength={72} {...form.register(`responses.${index}.description`)} />
              </FormField>
            </div>
          );
        })}
      </Section>
      <WaitFields
        responseTime={values.responseTimeSeconds ?? null}
        onResponseTime={(seconds) => form.setValue("responseTimeSeconds", seconds, { shouldValidate: true })}
        errorMessage={waits.errorMessage}
        errorLimit={waits.errorLimit}
      />
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function NumberForm({ node }: { node: BlockNode<"number"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(numberBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const options = useFieldArray({ control: form.control, name: "options", keyName: "key" });
  const { errors } = form.formState;
  const waits = useErrorFields({ messageRegistration: form.register("errorMessage"), limitRegistration: form.register("errorLimit", { valueAsNumber: true }), errors: { errorMessage: errors.errorMessage?.message, errorLimit: errors.errorLimit?.message } });
  return (
    <Fields>
      <MessageField registration={form.register("message")} error={errors.message?.message} />
      <Section title={t`Options`} action={<AddButton label={t`Add option`} disabled={options.fields.length >= MAX_NUMBER_OPTIONS} onClick={() => options.append({ id: optionId(), title: "" })} />}>
        {options.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.key} className="flex items-end gap-2">
              <FormField label={t`Option ${position}`} error={errors.options?.[index]?.title?.message} className="flex-1">
                <Input maxLength={100} {...form.register(`options.${index}.title`)} />
              </FormField>
              <RemoveButton label={t`Remove option ${position}`} onClick={() => options.remove(index)} />
            </div>
          );
        })}
      </Section>
      <WaitFields
        responseTime={values.responseTimeSeconds ?? null}
        onResponseTime={(seconds) => form.setValue("responseTimeSeconds", seconds, { shouldValidate: true })}
        errorMessage={waits.errorMessage}
        errorLimit={waits.errorLimit}
      />
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function ReceiveForm({ node }: { node: BlockNode<"receive"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(receiveBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const fields = useFieldOptions();
  const { errors } = form.formState;
  const waits = useErrorFields({ messageRegistration: form.register("errorMessage"), limitRegistration: form.register("errorLimit", { valueAsNumber: true }), errors: { errorMessage: errors.errorMessage?.message, errorLimit: errors.errorLimit?.message } });
  return (
    <Fields>
      <MessageField label={t`Question (optional)`} registration={form.register("message")} error={errors.message?.message} rows={3} />
      <FormField label={t`Save the answer into`} error={errors.fieldKey?.message} hint={t`The answer is checked by the field's type (number, date, email…). Without a field, any answer is accepted.`}>
        <NativeSelect {...form.register("fieldKey")} disabled={fields.loading}>
          <FieldOptions options={fields.options} current={values.fieldKey ?? ""} />
        </NativeSelect>
      </FormField>
      <WaitFields
        responseTime={values.responseTimeSeconds ?? null}
        onResponseTime={(seconds) => form.setValue("responseTimeSeconds", seconds, { shouldValidate: true })}
        errorMessage={waits.errorMessage}
        errorLimit={waits.errorLimit}
      />
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function SaveForm({ node }: { node: BlockNode<"save"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(saveBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const fields = useFieldOptions();
  const { errors } = form.formState;
  return (
    <Fields>
      <FormField label={t`Field`} error={errors.fieldKey?.message}>
        <NativeSelect {...form.register("fieldKey")} disabled={fields.loading}>
          <FieldOptions options={fields.options} current={values.fieldKey ?? ""} />
        </NativeSelect>
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
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function DelayForm({ node }: { node: BlockNode<"delay"> }) {
  const { t, i18n } = useLingui();
  const form = useForm({ resolver: zodResolver(delayBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const { errors } = form.formState;
  return (
    <Fields>
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
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function NotificationForm({ node }: { node: BlockNode<"notification"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(notificationBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const members = useQuery(flowMembersQuery());
  const options = (members.data ?? []).map((member) => ({ value: member.id, label: member.name || member.email }));
  const { errors } = form.formState;
  return (
    <Fields>
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
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function RandomForm({ node }: { node: BlockNode<"random"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(randomBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const outputs = useFieldArray({ control: form.control, name: "outputs", keyName: "key" });
  const { errors } = form.formState;
  return (
    <Fields>
      <Section title={t`Outputs`} action={<AddButton label={t`Add output`} disabled={outputs.fields.length >= 10} onClick={() => outputs.append({ id: optionId(), label: "", weight: 1 })} />}>
        {outputs.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.key} className="flex items-end gap-2">
              <FormField label={t`Output ${position}`} error={errors.outputs?.[index]?.label?.message} className="flex-1">
                <Input maxLength={60} {...form.register(`outputs.${index}.label`)} />
              </FormField>
              <FormField label={t`Weight`} error={errors.outputs?.[index]?.weight?.message} className="w-24">
                <Input type="number" min={1} max={100} {...form.register(`outputs.${index}.weight`, { valueAsNumber: true })} />
              </FormField>
              <RemoveButton label={t`Remove output ${position}`} onClick={() => outputs.remove(index)} />
            </div>
          );
        })}
      </Section>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function RotaryForm({ node }: { node: BlockNode<"rotary"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(rotaryBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const outputs = useFieldArray({ control: form.control, name: "outputs", keyName: "key" });
  const { errors } = form.formState;
  return (
    <Fields>
      <Section title={t`Outputs`} action={<AddButton label={t`Add output`} disabled={outputs.fields.length >= 10} onClick={() => outputs.append({ id: optionId(), label: "" })} />}>
        {outputs.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.key} className="flex items-end gap-2">
              <FormField label={t`Output ${position}`} error={errors.outputs?.[index]?.label?.message} className="flex-1">
                <Input maxLength={60} {...form.register(`outputs.${index}.label`)} />
              </FormField>
              <RemoveButton label={t`Remove output ${position}`} onClick={() => outputs.remove(index)} />
            </div>
          );
        })}
      </Section>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
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
    default:
      return { kind };
  }
}

function isActionKind(value: string): value is FlowAction["kind"] {
  return value in ACTION_KIND_LABELS;
}

function ActionForm({ node }: { node: BlockNode<"action"> }) {
  const { t, i18n } = useLingui();
  const form = useForm({ resolver: zodResolver(actionBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const actions = useFieldArray({ control: form.control, name: "actions", keyName: "key" });
  const members = useQuery(flowMembersQuery());
  const { errors } = form.formState;
  return (
    <Fields>
      <Section title={t`Actions`} action={<AddButton label={t`Add action`} disabled={actions.fields.length >= 20} onClick={() => actions.append(emptyAction("add_tag"))} />}>
        {actions.fields.map((field, index) => {
          const position = index + 1;
          const current = values.actions?.[index];
          return (
            <div key={field.key} className="grid gap-2 rounded-md bg-muted/40 p-2">
              <div className="flex items-end gap-2">
                <FormField label={t`Action ${position}`} className="flex-1">
                  <NativeSelect
                    value={current?.kind ?? "add_tag"}
                    onChange={(event) => {
                      const kind = event.target.value;
                      if (isActionKind(kind)) actions.update(index, emptyAction(kind));
                    }}
                  >
                    {Object.entries(ACTION_KIND_LABELS).map(([kind, label]) => (
                      <option key={kind} value={kind}>
                        {i18n._(label)}
                      </option>
                    ))}
                  </NativeSelect>
                </FormField>
                <RemoveButton label={t`Remove action ${position}`} onClick={() => actions.remove(index)} />
              </div>
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
            </div>
          );
        })}
      </Section>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
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
  const form = useForm({ resolver: zodResolver(conditionBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const rules = useFieldArray({ control: form.control, name: "rules", keyName: "key" });
  const fields = useFieldOptions();
  const { errors } = form.formState;
  return (
    <Fields>
      <FormField label={t`Go on by "True" when`}>
        <NativeSelect {...form.register("match")}>
          <option value="all">{t`all the tests hold`}</option>
          <option value="any">{t`any test holds`}</option>
        </NativeSelect>
      </FormField>
      <Section title={t`Tests`} action={<AddButton label={t`Add test`} disabled={rules.fields.length >= 20} onClick={() => rules.append(emptyRule("field"))} />}>
        {rules.fields.length === 0 ? <p className="text-xs text-muted-foreground">{t`Without tests the condition always holds.`}</p> : null}
        {rules.fields.map((field, index) => {
          const position = index + 1;
          const rule = values.rules?.[index];
          return (
            <div key={field.key} className="grid gap-2 rounded-md bg-muted/40 p-2">
              <div className="flex items-end gap-2">
                <FormField label={t`Test ${position}`} className="flex-1">
                  <NativeSelect
                    value={rule?.kind ?? "field"}
                    onChange={(event) => {
                      const kind = event.target.value;
                      if (isRuleKind(kind)) rules.update(index, emptyRule(kind));
                    }}
                  >
                    {Object.entries(CONDITION_KIND_LABELS).map(([kind, label]) => (
                      <option key={kind} value={kind}>
                        {i18n._(label)}
                      </option>
                    ))}
                  </NativeSelect>
                </FormField>
                <RemoveButton label={t`Remove test ${position}`} onClick={() => rules.remove(index)} />
              </div>
              {rule?.kind === "field" ? (
                <>
                  <FormField label={t`Field of test ${position}`}>
                    <NativeSelect {...form.register(`rules.${index}.key`)} disabled={fields.loading}>
                      <FieldOptions options={fields.options} current={rule.key ?? ""} />
                    </NativeSelect>
                  </FormField>
                  <FormField label={t`Comparison`}>
                    <NativeSelect {...form.register(`rules.${index}.op`)}>
                      {Object.entries(FIELD_OP_LABELS).map(([op, label]) => (
                        <option key={op} value={op}>
                          {i18n._(label)}
                        </option>
                      ))}
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
                      {Object.entries(TAG_OP_LABELS).map(([op, label]) => (
                        <option key={op} value={op}>
                          {i18n._(label)}
                        </option>
                      ))}
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
                  <FormField label={t`From`}>
                    <Input type="time" {...form.register(`rules.${index}.from`)} />
                  </FormField>
                  <FormField label={t`To`}>
                    <Input type="time" {...form.register(`rules.${index}.to`)} />
                  </FormField>
                </div>
              ) : null}
            </div>
          );
        })}
      </Section>
      <p className="text-xs text-muted-foreground">{t`Days and times are in the company's time zone.`}</p>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function FlowConnectionForm({ node }: { node: BlockNode<"flow_connection"> }) {
  const { t } = useLingui();
  const flowId = useEditor((state) => state.flowId);
  const form = useForm({ resolver: zodResolver(flowConnectionBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const flows = useQuery(everyFlowQuery());
  const { errors } = form.formState;
  return (
    <Fields>
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
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function IntegrationForm({ node }: { node: BlockNode<"integration"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(integrationBlockSchema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  const headers = useFieldArray({ control: form.control, name: "headers", keyName: "key" });
  const saves = useFieldArray({ control: form.control, name: "save", keyName: "key" });
  const fields = useFieldOptions();
  const { errors } = form.formState;
  return (
    <Fields>
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
      <Section title={t`Headers`} action={<AddButton label={t`Add header`} disabled={headers.fields.length >= 20} onClick={() => headers.append({ name: "", value: "" })} />}>
        {headers.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.key} className="flex items-end gap-2">
              <FormField label={t`Header ${position} name`} className="flex-1">
                <Input maxLength={100} {...form.register(`headers.${index}.name`)} />
              </FormField>
              <FormField label={t`Header ${position} value`} className="flex-1">
                <Input maxLength={2000} {...form.register(`headers.${index}.value`)} />
              </FormField>
              <RemoveButton label={t`Remove header ${position}`} onClick={() => headers.remove(index)} />
            </div>
          );
        })}
      </Section>
      {values.method !== "GET" ? (
        <FormField label={t`Body`} error={errors.body?.message} hint={t`JSON with variables such as ${JSON_EXAMPLE}.`}>
          <Textarea rows={5} className="font-mono text-xs" maxLength={10_000} {...form.register("body")} />
        </FormField>
      ) : null}
      <Section title={t`Save from the answer`} action={<AddButton label={t`Add value`} disabled={saves.fields.length >= 20} onClick={() => saves.append({ path: "", fieldKey: "" })} />}>
        {saves.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.key} className="flex items-end gap-2">
              <FormField label={t`Path ${position}`} className="flex-1" hint={index === 0 ? "data.items.0.name" : undefined}>
                <Input maxLength={200} {...form.register(`save.${index}.path`)} />
              </FormField>
              <FormField label={t`Into field ${position}`} className="flex-1">
                <NativeSelect {...form.register(`save.${index}.fieldKey`)}>
                  <FieldOptions options={fields.options} current={values.save?.[index]?.fieldKey ?? ""} />
                </NativeSelect>
              </FormField>
              <RemoveButton label={t`Remove value ${position}`} onClick={() => saves.remove(index)} />
            </div>
          );
        })}
      </Section>
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
  );
}

function FacebookPixelForm({ node }: { node: BlockNode<"facebook_pixel"> }) {
  const { t } = useLingui();
  const form = useForm({ resolver: zodResolver(facebookPixelBlockSchema), defaultValues: node.data, mode: "onChange" });
  useApply(node.id, useWatch({ control: form.control }));
  const { errors } = form.formState;
  return (
    <Fields>
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
      <DescriptionField registration={form.register("description")} error={errors.description?.message} />
    </Fields>
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
