/**
 * The block registry (STYLE.md, after Typebot and xyflow's strudel-flow): for each of the 22 block
 * types its category, data schema, defaults, outputs and completeness check. The editor builds its
 * palette, forms, handles and markers from it; `validateFlow` and the engine read the same entries.
 *
 * Output handles (the `sourceHandle` of an edge leaving the block):
 * - `next`: the single output of content blocks, start, action, delay, notification, save,
 *   facebook pixel, and link in `url` mode;
 * - `option:<id>`: one per button (link in `buttons` mode), list response, number option, random
 *   or rotary output;
 * - `true` / `false`: condition;
 * - `answered` / `invalid` / `no_answer`: receive; choice blocks (link buttons, list, number) have
 *   `invalid` and `no_answer` besides their options;
 * - `success` / `failure`: integration;
 * - flow connection has none (the run continues in the other flow).
 * An output that is not connected ends the run when taken. `required` outputs are the ones a
 * member almost always means to connect (choices, branches); the editor marks them when empty.
 */
import type { z } from "zod";
import { FormulaError, parseFormula } from "../formula";
import {
  actionBlockSchema,
  audioBlockSchema,
  BLOCK_TYPES,
  conditionBlockSchema,
  contactBlockSchema,
  delayBlockSchema,
  facebookPixelBlockSchema,
  fileBlockSchema,
  flowConnectionBlockSchema,
  imageBlockSchema,
  integrationBlockSchema,
  linkBlockSchema,
  listBlockSchema,
  notificationBlockSchema,
  numberBlockSchema,
  ptvBlockSchema,
  randomBlockSchema,
  receiveBlockSchema,
  rotaryBlockSchema,
  saveBlockSchema,
  startBlockSchema,
  textBlockSchema,
  videoBlockSchema,
  type BlockCategory,
  type BlockDataInputMap,
  type BlockDataMap,
  type BlockMedia,
  type BlockType,
} from "./blocks";

/** The fixed output handles. */
export const HANDLES = {
  next: "next",
  true: "true",
  false: "false",
  answered: "answered",
  invalid: "invalid",
  noAnswer: "no_answer",
  success: "success",
  failure: "failure",
} as const;

/** The handle of an option (button, list response, number option, random or rotary output). */
export function optionHandle(optionId: string): string {
  return `option:${optionId}`;
}

/** One output of a block: its handle id, an English label for developers (the editor localises), whether it should be connected. */
export type BlockOutput = { id: string; label: string; required: boolean };

/**
 * Why a block is not ready to publish: `path` into its data (`responses.0.title`), a stable
 * `code` (`empty_message`, `missing_media`, `missing_url`, `invalid_url`, `missing_field`,
 * `missing_options`, `empty_title`, `missing_tag`, `missing_name`, `missing_members`,
 * `missing_flow`, `invalid_formula`, `missing_button_text`, `missing_pixel`, `missing_value`,
 * `missing_path`, `missing_phone`, `missing_cycle`) and an English message.
 */
export type BlockIssue = { path: string; code: string; message: string };

/** What the editor and the engine know of one block type. */
export type BlockSpec<K extends BlockType> = {
  type: K;
  category: BlockCategory;
  /** The data schema (structural; see ./blocks.ts). */
  schema: z.ZodType<BlockDataMap[K], BlockDataInputMap[K]>;
  /** The data of a block just dropped on the canvas. */
  defaults(): BlockDataMap[K];
  /** The block's output handles for this data, in display order. */
  outputs(data: BlockDataMap[K]): BlockOutput[];
  /** Completeness problems (empty for a block ready to publish). */
  check(data: BlockDataMap[K]): BlockIssue[];
  /** Whether the block can pause the run (for a reply, a timer or an HTTP answer). */
  waits(data: BlockDataMap[K]): boolean;
  /** Whether edges may enter the block (false for start). */
  hasInput: boolean;
};

/** The registry's shape: one spec per type, correlated by key. */
export type BlockRegistry = { [K in BlockType]: BlockSpec<K> };

const NEXT: BlockOutput[] = [{ id: HANDLES.next, label: "Next", required: false }];
const WAIT_OUTPUTS: BlockOutput[] = [
  { id: HANDLES.invalid, label: "Invalid answer", required: false },
  { id: HANDLES.noAnswer, label: "No answer", required: false },
];

/** Whether `url` is an absolute http(s) URL (no variables). */
export function isAbsoluteHttpUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === "http:" || protocol === "https:";
}

function issue(path: string, code: string, message: string): BlockIssue {
  return { path, code, message };
}

function requireText(value: string, path: string, code: string, message: string): BlockIssue[] {
  return value.trim() ? [] : [issue(path, code, message)];
}

/** An uploaded file's reference (`r2:<key>`, see mediaSchema). */
const R2_REF = /^r2:[A-Za-z0-9/._-]+$/;

function checkMedia(media: BlockMedia): BlockIssue[] {
  if (!media.url) return [issue("media.url", "missing_media", "Upload a file.")];
  return R2_REF.test(media.url) || isAbsoluteHttpUrl(media.url) ? [] : [issue("media.url", "invalid_url", "The file's address is neither an upload nor an http(s) URL.")];
}

function checkOptions(options: readonly { title: string }[], path: string, min: number): BlockIssue[] {
  const issues: BlockIssue[] = [];
  if (options.length < min) issues.push(issue(path, "missing_options", `Add at least ${min} option${min > 1 ? "s" : ""}.`));
  options.forEach((option, index) => {
    if (!option.title.trim()) issues.push(issue(`${path}.${index}.title`, "empty_title", "Give the option a title."));
  });
  return issues;
}

function optionOutputs(options: readonly { id: string; title?: string; label?: string }[], kind: string): BlockOutput[] {
  return options.map((option, index) => ({
    id: optionHandle(option.id),
    label: option.title || option.label || `${kind} ${index + 1}`,
    required: true,
  }));
}

const content = (schemaCheck: () => BlockIssue[] = () => []) => ({ outputs: () => NEXT, waits: () => false, hasInput: true, check: schemaCheck });

/** The registry: every block type's spec. */
export const BLOCKS: BlockRegistry = {
  start: {
    type: "start",
    category: "actions",
    schema: startBlockSchema,
    defaults: () => startBlockSchema.parse({}),
    outputs: () => NEXT,
    check: () => [],
    waits: () => false,
    hasInput: false,
  },
  action: {
    type: "action",
    category: "actions",
    schema: actionBlockSchema,
    defaults: () => actionBlockSchema.parse({ actions: [{ kind: "add_tag" }] }),
    outputs: () => NEXT,
    check: (data) => {
      if (data.actions.length === 0) return [issue("actions", "missing_options", "Add an action.")];
      return data.actions.flatMap((action, index) => {
        if (action.kind === "add_tag" || action.kind === "remove_tag") return requireText(action.tag, `actions.${index}.tag`, "missing_tag", "Choose a tag.");
        if (action.kind === "custom_event") return requireText(action.name, `actions.${index}.name`, "missing_name", "Name the event.");
        if (action.kind === "add_to_cycle") return requireText(action.cycleId, `actions.${index}.cycleId`, "missing_cycle", "Choose a shipping cycle.");
        return [];
      });
    },
    waits: () => false,
    hasInput: true,
  },
  condition: {
    type: "condition",
    category: "actions",
    schema: conditionBlockSchema,
    defaults: () => conditionBlockSchema.parse({}),
    outputs: () => [
      { id: HANDLES.true, label: "True", required: true },
      { id: HANDLES.false, label: "False", required: true },
    ],
    check: (data) =>
      data.rules.flatMap((rule, index) => {
        if (rule.kind === "field") return rule.key ? [] : [issue(`rules.${index}.key`, "missing_field", "Choose a field.")];
        if (rule.kind === "tag") return requireText(rule.tag, `rules.${index}.tag`, "missing_tag", "Choose a tag.");
        if (rule.kind === "weekday") return rule.days.length ? [] : [issue(`rules.${index}.days`, "missing_options", "Choose at least one day.")];
        return [];
      }),
    waits: () => false,
    hasInput: true,
  },
  delay: {
    type: "delay",
    category: "actions",
    schema: delayBlockSchema,
    defaults: () => delayBlockSchema.parse({}),
    outputs: () => NEXT,
    check: () => [],
    waits: () => true,
    hasInput: true,
  },
  notification: {
    type: "notification",
    category: "actions",
    schema: notificationBlockSchema,
    defaults: () => notificationBlockSchema.parse({}),
    outputs: () => NEXT,
    check: (data) => [
      ...(data.memberIds.length ? [] : [issue("memberIds", "missing_members", "Choose who is notified.")]),
      ...requireText(data.message, "message", "empty_message", "Write the notification."),
    ],
    waits: () => false,
    hasInput: true,
  },
  random: {
    type: "random",
    category: "actions",
    schema: randomBlockSchema,
    defaults: () => randomBlockSchema.parse({ outputs: [{ id: "a" }, { id: "b" }] }),
    outputs: (data) => optionOutputs(data.outputs, "Output"),
    check: (data) => (data.outputs.length >= 2 ? [] : [issue("outputs", "missing_options", "Add at least 2 outputs.")]),
    waits: () => false,
    hasInput: true,
  },
  receive: {
    type: "receive",
    category: "actions",
    schema: receiveBlockSchema,
    defaults: () => receiveBlockSchema.parse({}),
    outputs: () => [{ id: HANDLES.answered, label: "Answered", required: true }, ...WAIT_OUTPUTS],
    check: () => [],
    waits: () => true,
    hasInput: true,
  },
  rotary: {
    type: "rotary",
    category: "actions",
    schema: rotaryBlockSchema,
    defaults: () => rotaryBlockSchema.parse({ outputs: [{ id: "a" }, { id: "b" }] }),
    outputs: (data) => optionOutputs(data.outputs, "Output"),
    check: (data) => (data.outputs.length >= 2 ? [] : [issue("outputs", "missing_options", "Add at least 2 outputs.")]),
    waits: () => false,
    hasInput: true,
  },
  save: {
    type: "save",
    category: "actions",
    schema: saveBlockSchema,
    defaults: () => saveBlockSchema.parse({}),
    outputs: () => NEXT,
    check: (data) => {
      const issues: BlockIssue[] = data.fieldKey ? [] : [issue("fieldKey", "missing_field", "Choose a field.")];
      if (!data.value.trim()) return [...issues, issue("value", "missing_value", "Write the value.")];
      if (data.mode === "formula") {
        try {
          parseFormula(data.value);
        } catch (error) {
          if (!(error instanceof FormulaError)) throw error;
          issues.push(issue("value", "invalid_formula", error.message));
        }
      }
      return issues;
    },
    waits: () => false,
    hasInput: true,
  },
  link: {
    type: "link",
    category: "buttons",
    schema: linkBlockSchema,
    defaults: () => linkBlockSchema.parse({}),
    outputs: (data) => (data.mode === "url" ? NEXT : [...optionOutputs(data.buttons, "Button"), ...WAIT_OUTPUTS]),
    check: (data) => {
      const issues = requireText(data.message, "message", "empty_message", "Write the message.");
      if (data.mode === "buttons") return [...issues, ...checkOptions(data.buttons, "buttons", 1)];
      issues.push(...requireText(data.buttonText, "buttonText", "missing_button_text", "Write the button's text."));
      if (!data.url.trim()) issues.push(issue("url", "missing_url", "Write the link."));
      else if (!data.url.includes("{{") && !isAbsoluteHttpUrl(data.url)) issues.push(issue("url", "invalid_url", "The link is not an http(s) URL."));
      return issues;
    },
    waits: (data) => data.mode === "buttons",
    hasInput: true,
  },
  list: {
    type: "list",
    category: "buttons",
    schema: listBlockSchema,
    defaults: () => listBlockSchema.parse({}),
    outputs: (data) => [...optionOutputs(data.responses, "Response"), ...WAIT_OUTPUTS],
    check: (data) => [
      ...requireText(data.message, "message", "empty_message", "Write the message."),
      ...requireText(data.buttonText, "buttonText", "missing_button_text", "Write the button's text."),
      ...checkOptions(data.responses, "responses", 1),
    ],
    waits: () => true,
    hasInput: true,
  },
  number: {
    type: "number",
    category: "buttons",
    schema: numberBlockSchema,
    defaults: () => numberBlockSchema.parse({}),
    outputs: (data) => [...optionOutputs(data.options, "Option"), ...WAIT_OUTPUTS],
    check: (data) => [...requireText(data.message, "message", "empty_message", "Write the message."), ...checkOptions(data.options, "options", 1)],
    waits: () => true,
    hasInput: true,
  },
  audio: { type: "audio", category: "content", schema: audioBlockSchema, defaults: () => audioBlockSchema.parse({}), ...content(), check: (data) => checkMedia(data.media) },
  contact: {
    type: "contact",
    category: "content",
    schema: contactBlockSchema,
    defaults: () => contactBlockSchema.parse({}),
    ...content(),
    check: (data) => [
      ...requireText(data.name, "name", "missing_name", "Write the contact's name."),
      ...requireText(data.phone, "phone", "missing_phone", "Write the contact's phone."),
    ],
  },
  file: { type: "file", category: "content", schema: fileBlockSchema, defaults: () => fileBlockSchema.parse({}), ...content(), check: (data) => checkMedia(data.media) },
  image: { type: "image", category: "content", schema: imageBlockSchema, defaults: () => imageBlockSchema.parse({}), ...content(), check: (data) => checkMedia(data.media) },
  ptv: { type: "ptv", category: "content", schema: ptvBlockSchema, defaults: () => ptvBlockSchema.parse({}), ...content(), check: (data) => checkMedia(data.media) },
  text: {
    type: "text",
    category: "content",
    schema: textBlockSchema,
    defaults: () => textBlockSchema.parse({}),
    ...content(),
    check: (data) => requireText(data.message, "message", "empty_message", "Write the message."),
  },
  video: { type: "video", category: "content", schema: videoBlockSchema, defaults: () => videoBlockSchema.parse({}), ...content(), check: (data) => checkMedia(data.media) },
  flow_connection: {
    type: "flow_connection",
    category: "actions",
    schema: flowConnectionBlockSchema,
    defaults: () => flowConnectionBlockSchema.parse({}),
    outputs: () => [],
    check: (data) => requireText(data.flowId, "flowId", "missing_flow", "Choose the flow to continue in."),
    waits: () => false,
    hasInput: true,
  },
  integration: {
    type: "integration",
    category: "integrations",
    schema: integrationBlockSchema,
    defaults: () => integrationBlockSchema.parse({}),
    outputs: () => [
      { id: HANDLES.success, label: "Success", required: true },
      { id: HANDLES.failure, label: "Failure", required: false },
    ],
    check: (data) => {
      const issues: BlockIssue[] = [];
      if (!data.url.trim()) issues.push(issue("url", "missing_url", "Write the URL."));
      else if (!/^https?:\/\//i.test(data.url.trim())) issues.push(issue("url", "invalid_url", "The URL must start with http:// or https://."));
      data.save.forEach((entry, index) => {
        if (!entry.path.trim()) issues.push(issue(`save.${index}.path`, "missing_path", "Write the answer's path."));
        if (!entry.fieldKey) issues.push(issue(`save.${index}.fieldKey`, "missing_field", "Choose a field."));
      });
      return issues;
    },
    waits: () => true,
    hasInput: true,
  },
  facebook_pixel: {
    type: "facebook_pixel",
    category: "pixels",
    schema: facebookPixelBlockSchema,
    defaults: () => facebookPixelBlockSchema.parse({}),
    outputs: () => NEXT,
    check: (data) => {
      const issues = [
        ...requireText(data.pixelId, "pixelId", "missing_pixel", "Write the pixel id."),
        ...requireText(data.accessToken, "accessToken", "missing_pixel", "Write the Conversions API access token."),
        ...requireText(data.eventName, "eventName", "missing_name", "Choose the event."),
      ];
      if (data.eventName === "Purchase" && (data.value === null || !data.currency)) issues.push(issue("value", "missing_value", "A purchase needs a value and a currency."));
      return issues;
    },
    waits: () => false,
    hasInput: true,
  },
};

/** The types of a category, in the spec's order (the palette's sections). */
export function blockTypesOf(category: BlockCategory): BlockType[] {
  return BLOCK_TYPES.filter((type) => BLOCKS[type].category === category);
}

/** The output handles of a block (correlates the node's type with its data). */
export function blockOutputs<K extends BlockType>(node: { type: K; data: BlockDataMap[K] }): BlockOutput[] {
  return BLOCKS[node.type].outputs(node.data);
}

/** The completeness problems of a block. */
export function blockIssues<K extends BlockType>(node: { type: K; data: BlockDataMap[K] }): BlockIssue[] {
  return BLOCKS[node.type].check(node.data);
}

/** Whether the block can pause the run. */
export function blockWaits<K extends BlockType>(node: { type: K; data: BlockDataMap[K] }): boolean {
  return BLOCKS[node.type].waits(node.data);
}
