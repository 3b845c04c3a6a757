/**
 * The ordered actions of a webhook (spec §3 Webhook "actions"): add one of each type, pick its
 * tag, field, column, flow and connection, move it up or down, remove it, and optionally guard it
 * with a condition on a body path ("status" equals "approved").
 */
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Switch } from "@/components/ui/switch";
import { CONDITION_OPERATORS, type ConditionOperator, type WebhookAction, type WebhookActionType } from "../../../../../schema/validation/webhooks";
import { optionQueries, type Option } from "../api/webhooks-api";
import { ACTION_LABELS, OPERATOR_LABELS } from "./labels";

/** Types the editor offers, in its menu's order. */
export const ADDABLE_TYPES: WebhookActionType[] = ["add_tag", "remove_tag", "start_flow", "set_field", "add_to_cycle", "move_crm"];

/** A new action of `type` with its first options chosen. */
function blank(type: WebhookActionType, options: Record<"tags" | "fields" | "columns" | "flows" | "connections" | "cycles", Option[]>): WebhookAction {
  const first = (list: Option[]) => list[0]?.id ?? "";
  switch (type) {
    case "start_flow":
      return { type, flowId: first(options.flows), connectionId: first(options.connections), condition: null };
    case "add_tag":
    case "remove_tag":
      return { type, tagId: first(options.tags), condition: null };
    case "set_field":
      return { type, customFieldId: first(options.fields), value: "", condition: null };
    case "add_to_cycle":
      return { type, cycleId: first(options.cycles), condition: null };
    case "move_crm":
      return { type, columnId: first(options.columns), condition: null };
  }
}

function OptionSelect({ label, value, options, onChange, error }: { label: string; value: string; options: Option[]; onChange: (id: string) => void; error?: string }) {
  const { t } = useLingui();
  return (
    <FormField label={label} error={error}>
      <NativeSelect value={value} onChange={(event) => onChange(event.target.value)}>
        {value === "" ? <option value="">{t`Choose…`}</option> : null}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
        {value !== "" && !options.some((o) => o.id === value) ? <option value={value}>{t`(not available)`}</option> : null}
      </NativeSelect>
    </FormField>
  );
}

/** The actions editor; `errors` are the server's `actions.<i>.<field>` codes. */
export function ActionsEditor({ actions, onChange, errors }: { actions: WebhookAction[]; onChange: (actions: WebhookAction[]) => void; errors: Record<string, string> }) {
  const { t, i18n } = useLingui();
  const tags = useQuery(optionQueries.tags());
  const fields = useQuery(optionQueries.fields());
  const columns = useQuery(optionQueries.columns());
  const flows = useQuery(optionQueries.flows());
  const connections = useQuery(optionQueries.connections());
  const cycles = useQuery(optionQueries.cycles());
  const options = { tags: tags.data ?? [], fields: fields.data ?? [], columns: columns.data ?? [], flows: flows.data ?? [], connections: connections.data ?? [], cycles: cycles.data ?? [] };
  const set = (index: number, next: WebhookAction) => onChange(actions.map((a, i) => (i === index ? next : a)));
  const move = (index: number, by: number) => {
    const next = [...actions];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    onChange(next);
  };

  return (
    <div className="grid gap-3">
      {actions.length === 0 ? <p className="text-sm text-muted-foreground">{t`No actions yet: requests only create or update the contact.`}</p> : null}
      <ol className="grid gap-3" aria-label={t`Actions`}>
        {actions.map((action, index) => {
          const err = (field: string) => errors[`actions.${index}.${field}`];
          const n = index + 1;
          const label = i18n._(ACTION_LABELS[action.type]);
          return (
            <li key={index} className="grid gap-3 rounded-md border p-3" data-testid="webhook-action" data-type={action.type}>
              <div className="flex items-center gap-2">
                <span className="flex size-6 items-center justify-center rounded-full bg-muted text-xs font-semibold">{n}</span>
                <p className="min-w-0 flex-1 truncate text-sm font-medium">{label}</p>
                <Button type="button" variant="ghost" size="icon" className="size-8" disabled={index === 0} onClick={() => move(index, -1)} aria-label={t`Move action ${n} up`}>
                  <ArrowUp />
                </Button>
                <Button type="button" variant="ghost" size="icon" className="size-8" disabled={index === actions.length - 1} onClick={() => move(index, 1)} aria-label={t`Move action ${n} down`}>
                  <ArrowDown />
                </Button>
                <Button type="button" variant="ghost" size="icon" className="size-8 text-destructive hover:text-destructive" onClick={() => onChange(actions.filter((_, i) => i !== index))} aria-label={t`Remove action ${n}`}>
                  <Trash2 />
                </Button>
              </div>
              <div className="grid gap-3 sm:grid-cols-2">
                {action.type === "add_tag" || action.type === "remove_tag" ? <OptionSelect label={t`Tag`} value={action.tagId} options={options.tags} onChange={(tagId) => set(index, { ...action, tagId })} error={err("tagId")} /> : null}
                {action.type === "start_flow" ? (
                  <>
                    <OptionSelect label={t`Flow`} value={action.flowId} options={options.flows} onChange={(flowId) => set(index, { ...action, flowId })} error={err("flowId")} />
                    <OptionSelect label={t`Connection`} value={action.connectionId} options={options.connections} onChange={(connectionId) => set(index, { ...action, connectionId })} error={err("connectionId")} />
                  </>
                ) : null}
                {action.type === "add_to_cycle" ? <OptionSelect label={t`Shipping cycle`} value={action.cycleId} options={options.cycles} onChange={(cycleId) => set(index, { ...action, cycleId })} error={err("cycleId")} /> : null}
                {action.type === "move_crm" ? <OptionSelect label={t`CRM column`} value={action.columnId} options={options.columns} onChange={(columnId) => set(index, { ...action, columnId })} error={err("columnId")} /> : null}
                {action.type === "set_field" ? (
                  <>
                    <OptionSelect label={t`Custom field`} value={action.customFieldId} options={options.fields} onChange={(customFieldId) => set(index, { ...action, customFieldId })} error={err("customFieldId")} />
                    <FormField label={t`Value`}>
                      <NativeSelect
                        value={action.path !== undefined ? "path" : "value"}
                        onChange={(event) =>
                          set(index, event.target.value === "path" ? { type: "set_field", customFieldId: action.customFieldId, path: "", condition: action.condition } : { type: "set_field", customFieldId: action.customFieldId, value: "", condition: action.condition })
                        }
                      >
                        <option value="path">{t`From the body`}</option>
                        <option value="value">{t`A fixed value`}</option>
                      </NativeSelect>
                    </FormField>
                    <FormField label={action.path !== undefined ? t`Value from the body (path)` : t`Fixed value`} error={err("path") ?? err("value")} hint={t`Click a field of the received body to take its value from there.`}>
                      <Input
                        value={action.path ?? action.value ?? ""}
                        onChange={(event) => set(index, action.path !== undefined ? { ...action, path: event.target.value } : { ...action, value: event.target.value })}
                        className={action.path !== undefined ? "font-mono" : undefined}
                      />
                    </FormField>
                  </>
                ) : null}
              </div>
              <div className="grid gap-2">
                <label className="flex items-center gap-2 text-sm">
                  <Switch
                    checked={action.condition !== null}
                    onCheckedChange={(on) => set(index, { ...action, condition: on ? { path: "", operator: "equals", value: "" } : null })}
                    aria-label={t`Only when a condition holds (action ${n})`}
                  />
                  {t`Only when…`}
                </label>
                {action.condition ? (
                  <div className="grid gap-2 sm:grid-cols-3">
                    <FormField label={t`Body path`} error={err("condition.path")}>
                      <Input value={action.condition.path} onChange={(event) => action.condition && set(index, { ...action, condition: { ...action.condition, path: event.target.value } })} className="font-mono" placeholder="status" />
                    </FormField>
                    <FormField label={t`Operator`}>
                      <NativeSelect
                        value={action.condition.operator}
                        onChange={(event) => {
                          const operator = CONDITION_OPERATORS.find((o) => o === event.target.value);
                          if (action.condition && operator) set(index, { ...action, condition: { ...action.condition, operator: operator satisfies ConditionOperator } });
                        }}
                      >
                        {CONDITION_OPERATORS.map((operator) => (
                          <option key={operator} value={operator}>
                            {i18n._(OPERATOR_LABELS[operator])}
                          </option>
                        ))}
                      </NativeSelect>
                    </FormField>
                    {action.condition.operator !== "exists" ? (
                      <FormField label={t`Value`} error={err("condition.value")}>
                        <Input value={action.condition.value} onChange={(event) => action.condition && set(index, { ...action, condition: { ...action.condition, value: event.target.value } })} placeholder="approved" />
                      </FormField>
                    ) : null}
                  </div>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" variant="outline" className="justify-self-start" data-testid="add-action">
            <Plus />
            {t`Add an action`}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          {ADDABLE_TYPES.map((type) => (
            <DropdownMenuItem key={type} onSelect={() => onChange([...actions, blank(type, options)])} data-testid={`add-action-${type}`}>
              {i18n._(ACTION_LABELS[type])}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
