/**
 * The flow builder's words in the user's language: block types and categories (spec §3 Block types,
 * Block categories), builder types (spec §2 default builders), output handles, and the problems of
 * schema/flows `validateFlow` by code. `msg` maps, translated where shown.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { HANDLES, type AnyBlockNode, type BlockCategory, type BlockOutput, type BlockType, type ConditionRule, type FlowAction, type FlowProblem } from "../../../../../schema/flows";
import type { FlowType } from "../../../../../schema/flow-builders";
import type { FlowWarningCode } from "../../../../../worker/flows/types";

/** Each block type's name (the palette's "Add <name>", the node's title, the form's title). */
export const BLOCK_LABELS: Record<BlockType, MessageDescriptor> = {
  start: msg`Start`,
  action: msg`Action`,
  condition: msg`Condition`,
  delay: msg`Delay`,
  notification: msg`Notification`,
  random: msg`Random`,
  receive: msg`Receive`,
  rotary: msg`Rotary`,
  save: msg`Save`,
  link: msg`Link`,
  list: msg`List`,
  number: msg`Number`,
  audio: msg`Audio`,
  contact: msg`Contact`,
  file: msg`File`,
  image: msg`Image`,
  ptv: msg`Video note`,
  text: msg`Text`,
  video: msg`Video`,
  flow_connection: msg`Flow connection`,
  integration: msg`Integration`,
  facebook_pixel: msg`Facebook pixel`,
};

/** One line on what each block does (the palette's tooltip and the form's description). */
export const BLOCK_HINTS: Record<BlockType, MessageDescriptor> = {
  start: msg`Where every run of the flow begins.`,
  action: msg`Adds or removes tags, opens, transfers or closes the ticket, records events.`,
  condition: msg`Tests fields, tags, the day and the time, then goes on by true or false.`,
  delay: msg`Waits some seconds while showing typing or recording.`,
  notification: msg`Alerts chosen members in the app.`,
  random: msg`Picks an output at random, by weight.`,
  receive: msg`Waits for the contact's reply and saves it into a field.`,
  rotary: msg`Hands contacts to its outputs in turn.`,
  save: msg`Sets a custom field, with a value or a formula.`,
  link: msg`Sends a link button or reply buttons.`,
  list: msg`Sends a list the contact picks a response from.`,
  number: msg`Sends a numbered menu answered by digit.`,
  audio: msg`Sends an audio.`,
  contact: msg`Sends a contact card.`,
  file: msg`Sends a document.`,
  image: msg`Sends an image.`,
  ptv: msg`Sends a round video note.`,
  text: msg`Sends a text message.`,
  video: msg`Sends a video.`,
  flow_connection: msg`Continues in another flow.`,
  integration: msg`Calls an HTTP address and saves its answer.`,
  facebook_pixel: msg`Sends a Conversions API event.`,
};

/** The palette's five categories. */
export const CATEGORY_LABELS: Record<BlockCategory, MessageDescriptor> = {
  content: msg`Content`,
  buttons: msg`Buttons`,
  actions: msg`Actions`,
  integrations: msg`Integrations`,
  pixels: msg`Pixels`,
};

/** The builder types (spec §2 "default builders: default, media, campaign, story mention"). */
export const FLOW_TYPE_LABELS: Record<FlowType, MessageDescriptor> = {
  default: msg`Default`,
  media: msg`Media`,
  campaign: msg`Campaign`,
  story_mention: msg`Story mention`,
};

const HANDLE_LABELS: Record<string, MessageDescriptor> = {
  [HANDLES.next]: msg`Next`,
  [HANDLES.true]: msg`True`,
  [HANDLES.false]: msg`False`,
  [HANDLES.answered]: msg`Answered`,
  [HANDLES.invalid]: msg`Invalid answer`,
  [HANDLES.noAnswer]: msg`No answer`,
  [HANDLES.success]: msg`Success`,
  [HANDLES.failure]: msg`Failure`,
};

/** The options of a block whose outputs are options, with the text the member gave each. */
function optionTexts(node: AnyBlockNode): { id: string; text: string }[] {
  switch (node.type) {
    case "link":
      return node.data.buttons.map((button) => ({ id: button.id, text: button.title }));
    case "list":
      return node.data.responses.map((response) => ({ id: response.id, text: response.title }));
    case "number":
      return node.data.options.map((option) => ({ id: option.id, text: option.title }));
    case "random":
    case "rotary":
      return node.data.outputs.map((output) => ({ id: output.id, text: output.label }));
    default:
      return [];
  }
}

/** An output's label: the fixed handles by name, options by the member's text (or "Option n"). */
export function outputLabel(i18n: I18n, node: AnyBlockNode, output: BlockOutput): string {
  const fixed = HANDLE_LABELS[output.id];
  if (fixed) return i18n._(fixed);
  const options = optionTexts(node);
  const index = options.findIndex((option) => `option:${option.id}` === output.id);
  const text = options[index]?.text.trim();
  if (text) return text;
  const position = index + 1;
  return i18n._(msg`Option ${position}`);
}

const DETAIL_LABELS: Record<string, MessageDescriptor> = {
  empty_message: msg`Write the message.`,
  missing_media: msg`Upload a file.`,
  missing_url: msg`Write the link.`,
  invalid_url: msg`The address is not valid.`,
  missing_field: msg`Choose a field.`,
  missing_options: msg`Add the options.`,
  empty_title: msg`Give every option a title.`,
  missing_tag: msg`Choose a tag.`,
  missing_name: msg`Write the name.`,
  missing_members: msg`Choose who is notified.`,
  missing_flow: msg`Choose the flow to continue in.`,
  invalid_formula: msg`The formula is not valid.`,
  missing_button_text: msg`Write the button's text.`,
  missing_pixel: msg`Write the pixel id and token.`,
  missing_value: msg`Write the value.`,
  missing_path: msg`Write the answer's path.`,
  missing_phone: msg`Write the phone.`,
  missing_cycle: msg`Choose a shipping cycle.`,
};

const CODE_LABELS: Record<string, MessageDescriptor> = {
  missing_start: msg`The flow has no start block.`,
  multiple_starts: msg`The flow has more than one start block.`,
  unknown_handle: msg`An edge leaves by an output the block no longer has.`,
  duplicate_output_edge: msg`An output is connected more than once.`,
  edge_into_start: msg`Nothing may connect into the start block.`,
  unconnected_output: msg`An output is not connected.`,
  unreachable_block: msg`No run can reach this block.`,
  loop_without_wait: msg`This block is in a loop that never waits for the contact.`,
  invalid_block_data: msg`The block's settings are invalid.`,
};

/** A problem in the user's language: the block's missing piece, else the problem's kind. */
export function problemText(i18n: I18n, problem: Pick<FlowProblem, "code" | "detail" | "message">): string {
  const detail = problem.code === "incomplete_block" && problem.detail ? DETAIL_LABELS[problem.detail] : undefined;
  const label = detail ?? CODE_LABELS[problem.code];
  return label ? i18n._(label) : problem.message;
}

/** The spec §8 flow error, shown when an autosave fails. */
export const SAVE_ERROR = msg`Error saving. Try again.`;

/** The kinds of action of an action block. */
export const ACTION_KIND_LABELS: Record<FlowAction["kind"], MessageDescriptor> = {
  add_tag: msg`Add tag`,
  remove_tag: msg`Remove tag`,
  open_ticket: msg`Open ticket`,
  transfer_ticket: msg`Transfer ticket`,
  close_ticket: msg`Close ticket`,
  custom_event: msg`Record custom event`,
  add_to_cycle: msg`Add to shipping cycle`,
};

/** The kinds of test of a condition block. */
export const CONDITION_KIND_LABELS: Record<ConditionRule["kind"], MessageDescriptor> = {
  field: msg`Field`,
  tag: msg`Tag`,
  weekday: msg`Day of the week`,
  time: msg`Time of day`,
};

/** A field test's operators. */
export const FIELD_OP_LABELS: Record<Extract<ConditionRule, { kind: "field" }>["op"], MessageDescriptor> = {
  equals: msg`equals`,
  not_equals: msg`does not equal`,
  contains: msg`contains`,
  not_contains: msg`does not contain`,
  greater: msg`is greater than`,
  less: msg`is less than`,
  empty: msg`is empty`,
  not_empty: msg`is not empty`,
};

/** A tag test's operators. */
export const TAG_OP_LABELS: Record<Extract<ConditionRule, { kind: "tag" }>["op"], MessageDescriptor> = {
  has: msg`has the tag`,
  has_not: msg`does not have the tag`,
};

/** Days of the week, Sunday first (0 … 6). */
export const WEEKDAY_LABELS: readonly MessageDescriptor[] = [msg`Sun`, msg`Mon`, msg`Tue`, msg`Wed`, msg`Thu`, msg`Fri`, msg`Sat`];

/** The delay block's indicators. */
export const INDICATOR_LABELS: Record<"none" | "typing" | "recording", MessageDescriptor> = {
  none: msg`None`,
  typing: msg`Typing…`,
  recording: msg`Recording audio…`,
};

/** Why the engine skipped a block (its `warning` effects), shown in the test run. */
export const WARNING_LABELS: Record<FlowWarningCode, MessageDescriptor> = {
  invalid_value: msg`a value the field's type refuses`,
  formula_failed: msg`the formula could not be computed`,
  url_refused: msg`the address is not a public http(s) address`,
  invalid_answer: msg`the answer is not JSON`,
  missing_config: msg`the block is not set up yet`,
  bad_timezone: msg`the company's time zone is not valid`,
};
