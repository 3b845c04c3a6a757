/**
 * The keyword trigger slide-over (spec §3 Keyword trigger: name, turn_on, rules of type start_with,
 * contains, is over a word list, the flow to start), on the API's own zod schema.
 */
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Plus, Trash2 } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Button } from "@/components/ui/button";
import { ChipsInput } from "@/components/ui/chips-input";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Switch } from "@/components/ui/switch";
import { applyServerErrors } from "@/lib/form-errors";
import { notifySuccess } from "@/lib/notify";
import type { KeywordAnswer } from "../../../../../schema/flow-api";
import { KEYWORD_RULE_TYPES, type KeywordRuleType } from "../../../../../schema/enums";
import { keywordInput } from "../../../../../schema/validation/flows";
import { createKeyword, keywordFlowsQuery, keywordKeys, updateKeyword } from "../api/keywords-api";

/** The rule kinds' names. */
export const RULE_TYPE_LABELS: Record<KeywordRuleType, MessageDescriptor> = {
  start_with: msg`Starts with`,
  contains: msg`Contains`,
  is: msg`Is exactly`,
};

/** What the sheet edits: a new trigger, or an existing one. */
export type KeywordSheetTarget = { kind: "new" } | { kind: "edit"; keyword: KeywordAnswer };

function KeywordForm({ target, onDone }: { target: KeywordSheetTarget; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const keyword = target.kind === "edit" ? target.keyword : null;
  const flows = useQuery(keywordFlowsQuery());
  const form = useForm({
    resolver: zodResolver(keywordInput),
    defaultValues: keyword ? { name: keyword.name, turnOn: keyword.turnOn, rules: keyword.rules, flowId: keyword.flowId } : { name: "", turnOn: true, rules: [{ type: "contains" as const, words: [] }], flowId: "" },
  });
  const rules = useFieldArray({ control: form.control, name: "rules" });
  const save = useMutation({
    mutationFn: (values: Parameters<typeof createKeyword>[0]) => (keyword ? updateKeyword(keyword.id, values) : createKeyword(values)),
    onSuccess: async () => {
      notifySuccess(keyword ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: keywordKeys.all });
    },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "flowId", "rules"]);
    }
  });
  return (
    <FormSheetForm onSubmit={submit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={keyword ? t`Save changes` : t`Create keyword`}>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus {...form.register("name")} />
      </FormField>
      <div className="flex items-center justify-between gap-3">
        <div className="grid gap-0.5">
          <Label htmlFor="keyword-turn-on">{t`Turned on`}</Label>
          <p className="text-xs text-muted-foreground">{t`While on, a matching message starts the flow.`}</p>
        </div>
        <Controller control={form.control} name="turnOn" render={({ field }) => <Switch id="keyword-turn-on" checked={field.value ?? true} onCheckedChange={field.onChange} />} />
      </div>
      <fieldset className="grid gap-3">
        <div className="flex items-center justify-between">
          <legend className="text-sm font-medium">{t`Rules`}</legend>
          <Button type="button" variant="outline" size="sm" disabled={rules.fields.length >= 20} onClick={() => rules.append({ type: "contains", words: [] })}>
            <Plus />
            {t`Add rule`}
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">{t`A message matches when any rule matches one of its words. Case and accents are ignored.`}</p>
        {errors.rules?.message ? <p className="text-xs font-medium text-destructive">{t`Add at least one rule.`}</p> : null}
        {rules.fields.map((field, index) => {
          const position = index + 1;
          return (
            <div key={field.id} className="grid gap-2 rounded-md border p-3">
              <div className="flex items-end gap-2">
                <FormField label={t`Rule ${position}`} className="flex-1">
                  <NativeSelect {...form.register(`rules.${index}.type`)}>
                    {KEYWORD_RULE_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {i18n._(RULE_TYPE_LABELS[type])}
                      </option>
                    ))}
                  </NativeSelect>
                </FormField>
                <Button type="button" variant="ghost" size="icon" aria-label={t`Remove rule ${position}`} onClick={() => rules.remove(index)} disabled={rules.fields.length === 1}>
                  <Trash2 />
                </Button>
              </div>
              <Controller
                control={form.control}
                name={`rules.${index}.words`}
                render={({ field: words }) => (
                  <FormField label={t`Words of rule ${position}`} error={errors.rules?.[index]?.words?.message} hint={t`Press Enter after each word.`}>
                    <ChipsInput value={words.value} onValueChange={words.onChange} removeLabel={(chip) => t`Remove ${chip}`} maxLength={100} />
                  </FormField>
                )}
              />
            </div>
          );
        })}
      </fieldset>
      <FormField label={t`Flow to start`} error={errors.flowId?.message}>
        <NativeSelect {...form.register("flowId")} disabled={flows.isPending}>
          <option value="">{flows.isError ? t`Could not load the flows` : t`Choose a flow`}</option>
          {(flows.data ?? []).map((flow) => (
            <option key={flow.id} value={flow.id}>
              {flow.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </FormSheetForm>
  );
}

/** The keyword trigger slide-over. */
export function KeywordSheet({ target, onClose }: { target: KeywordSheetTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const keyword = target?.kind === "edit" ? target.keyword : null;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={keyword ? t`Edit keyword` : t`New keyword`} description={t`Starts a flow when a contact's message matches.`}>
      {target ? <KeywordForm key={keyword?.id ?? "new"} target={target} onDone={onClose} /> : null}
    </FormSheet>
  );
}
