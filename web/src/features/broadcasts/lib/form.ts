/**
 * The broadcast form's values and how they become the body of POST/PUT /api/broadcasts (issue 10;
 * spec §3 Broadcast: name, delay, scheduledDate, filters, flowId; the connection and an optional
 * WhatsApp template): every problem the API's own schema (schema/validation/broadcasts.ts) finds is
 * reported under the form field it belongs to, before anything is sent. While a broadcast is
 * started or paused only its name and delay may change (the API's rule), so only those are sent.
 */
import {
  broadcastInput,
  type BroadcastDelay,
  type BroadcastDetail,
  type BroadcastStatus,
  type BroadcastTemplate,
  type CONTACT_VARIABLE_FIELDS,
} from "../../../../../schema/validation/broadcasts";
import type { TemplateAnswer } from "../../../../../schema/validation/templates";
import type { BroadcastUpdateBody, BroadcastWriteBody } from "../api/broadcasts-api";
import { completeFilters, fromApiFilter, toApiFilter, type FilterDraft } from "./filters";
import { fromScheduledDate, toScheduledDate, type ScheduleDraft } from "./schedule";

/** A contact column a variable may read. */
export type ContactVariableField = (typeof CONTACT_VARIABLE_FIELDS)[number];

/** One template variable as the form keeps it: where its value comes from. */
export type VariableDraft = {
  component: "header" | "body";
  /** 1-based number of the placeholder in its component. */
  index: number;
  /** The placeholder as the template writes it (`1`, or a name). */
  placeholder: string;
  source: "contact" | "custom_field" | "text";
  field: ContactVariableField;
  fieldId: string;
  text: string;
};

/** The chosen template: its name and language, and its variables. */
export type TemplateDraft = { name: string; language: string; variables: VariableDraft[] };

/** The form's values. */
export type BroadcastFormValues = {
  name: string;
  connectionId: string;
  flowId: string;
  delay: BroadcastDelay;
  schedule: ScheduleDraft;
  filters: FilterDraft[];
  template: TemplateDraft | null;
};

/** Form fields a problem can be shown under (schema paths mapped onto them). */
export type FormPath =
  | "name"
  | "connectionId"
  | "flowId"
  | "delay"
  | "schedule.date"
  | `filters.${number}.value`
  | `filters.${number}.tag`
  | `filters.${number}.fieldId`
  | `filters.${number}.condition`
  | "template"
  | `template.variables.${number}.text`
  | `template.variables.${number}.fieldId`;

/** A problem found before sending: the field and its code (translated by fieldErrorMessage). */
export type FormProblem = { path: FormPath | "root"; code: string };

/** Whether the broadcast's status lets every field change (`waiting`), or only name and delay. */
export function editableFully(status: BroadcastStatus | null): boolean {
  return status === null || status === "waiting";
}

/** The starting values: the broadcast's (its schedule on the company's wall clock), or a new one. */
export function initialFormValues(broadcast: BroadcastDetail | null, timeZone: string): BroadcastFormValues {
  if (!broadcast) return { name: "", connectionId: "", flowId: "", delay: "short", schedule: { date: "", time: "" }, filters: [], template: null };
  return {
    name: broadcast.name,
    connectionId: broadcast.connection.id,
    flowId: broadcast.flow.id,
    delay: broadcast.delay,
    schedule: fromScheduledDate(broadcast.scheduledDate, timeZone),
    filters: broadcast.filters.map(fromApiFilter),
    template: broadcast.template ? fromApiTemplate(broadcast.template) : null,
  };
}

/** A saved template back as the form's draft (placeholders named by their number). */
function fromApiTemplate(template: BroadcastTemplate): TemplateDraft {
  return {
    name: template.name,
    language: template.language,
    variables: template.variables
      .filter((variable): variable is typeof variable & { component: "header" | "body" } => variable.component !== "button")
      .map((variable) => ({
        component: variable.component,
        index: variable.index,
        placeholder: String(variable.index),
        source: variable.source.type,
        field: variable.source.type === "contact" ? variable.source.field : "first_name",
        fieldId: variable.source.type === "custom_field" ? variable.source.fieldId : "",
        text: variable.source.type === "text" ? variable.source.text : "",
      })),
  };
}

/** A template chosen in the picker as a fresh draft: each placeholder of its header and body, first name by default. */
export function templateDraftOf(template: TemplateAnswer, previous: TemplateDraft | null): TemplateDraft {
  const variable = (component: "header" | "body", placeholder: string, i: number): VariableDraft => {
    const kept = previous?.name === template.name ? previous.variables.find((v) => v.component === component && v.index === i + 1) : undefined;
    return kept ? { ...kept, placeholder } : { component, index: i + 1, placeholder, source: "contact", field: "first_name", fieldId: "", text: "" };
  };
  return {
    name: template.name,
    language: template.language,
    variables: [...template.headerParams.map((p, i) => variable("header", p, i)), ...template.bodyParams.map((p, i) => variable("body", p, i))],
  };
}

/** The template as the API takes it. */
export function toApiTemplate(draft: TemplateDraft): BroadcastTemplate {
  return {
    name: draft.name,
    language: draft.language,
    variables: draft.variables.map((variable) => ({
      component: variable.component,
      index: variable.index,
      source:
        variable.source === "contact"
          ? { type: "contact" as const, field: variable.field }
          : variable.source === "custom_field"
            ? { type: "custom_field" as const, fieldId: variable.fieldId }
            : { type: "text" as const, text: variable.text },
    })),
  };
}

/** Maps a path of the API schema onto the form field that shows it. */
function formPathOf(path: readonly PropertyKey[]): FormPath | "root" {
  const [first, second, third, fourth, fifth] = path.map(String);
  switch (first) {
    case "name":
    case "connectionId":
    case "flowId":
    case "delay":
      return first;
    case "scheduledDate":
      return "schedule.date";
    case "filters": {
      const index = Number(second);
      if (!Number.isInteger(index)) return "root";
      if (third === "tag" || third === "fieldId" || third === "condition") return `filters.${index}.${third}`;
      return `filters.${index}.value`;
    }
    case "template": {
      const index = Number(third);
      if (second === "variables" && Number.isInteger(index)) return fifth === "fieldId" || fourth === "fieldId" ? `template.variables.${index}.fieldId` : `template.variables.${index}.text`;
      return "template";
    }
    default:
      return "root";
  }
}

/**
 * The body of POST /api/broadcasts (a new or waiting broadcast) or, for a started or paused one,
 * of PUT with only name and delay; or the problems to show. Every filter row must be complete here
 * (the live count may leave half-filled rows out, a save may not).
 */
export function toBroadcastBody(
  values: BroadcastFormValues,
  options: { status: BroadcastStatus | null; timeZone: string; now: number; channel: string | null },
): { full: true; body: BroadcastWriteBody; problems: [] } | { full: false; body: BroadcastUpdateBody; problems: [] } | { body: null; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  if (!editableFully(options.status)) {
    const body: BroadcastUpdateBody = { name: values.name.trim(), delay: values.delay };
    const parsed = broadcastInput.pick({ name: true, delay: true }).safeParse(body);
    if (parsed.success) return { full: false, body, problems: [] };
    return { body: null, problems: parsed.error.issues.map((issue) => ({ path: formPathOf(issue.path), code: issue.message })) };
  }
  const schedule = toScheduledDate(values.schedule, options.timeZone, options.now);
  if ("problem" in schedule) problems.push({ path: "schedule.date", code: schedule.problem });
  const filters = values.filters.map((draft, index) => {
    const filter = toApiFilter(draft);
    if (!filter) problems.push({ path: `filters.${index}.value`, code: "required" });
    return filter;
  });
  const template = values.template && options.channel === "whatsapp-cloud" ? toApiTemplate(values.template) : null;
  const body: BroadcastWriteBody = {
    name: values.name.trim(),
    connectionId: values.connectionId,
    flowId: values.flowId,
    delay: values.delay,
    scheduledDate: "value" in schedule ? schedule.value : null,
    filters: completeFilters(values.filters).filters,
    template,
  };
  const parsed = broadcastInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = formPathOf(issue.path);
      // A filter row already reported as incomplete is not reported twice.
      if (path.startsWith("filters.") && filters.some((f) => f === null)) continue;
      // An option not chosen yet says so, rather than "invalid identifier".
      const code = path === "flowId" && !values.flowId ? "flow_required" : path === "connectionId" && !values.connectionId ? "required" : issue.message;
      if (!problems.some((p) => p.path === path)) problems.push({ path, code });
    }
  }
  return problems.length ? { body: null, problems } : { full: true, body, problems: [] };
}
