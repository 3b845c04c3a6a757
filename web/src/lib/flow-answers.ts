/**
 * Runtime parsers of the answers that carry a flow document (a builder's draft): the draft is
 * migrated and checked by schema/flows `parseFlow`. They live apart from answers.ts so that pages
 * other than the flow builder do not load the flow schema (block registry, validation, formulas)
 * with the answers they need (issue 9 "Load only what a screen needs").
 */
import { z } from "zod";
import { parseFlow, type FlowDocument } from "../../../schema/flows";
import { flowProblemAnswer, flowSummaryShape, flowTriggersAnswer, SHARE_REFUSALS, type FlowDetail, type SharedFlowDetail } from "./answers";

/** A flow document as answered: migrated and checked by `parseFlow` (an unreadable draft fails the answer). */
const flowDocumentAnswer: z.ZodType<FlowDocument, unknown> = z.unknown().transform((value, ctx) => {
  const parsed = parseFlow(value);
  if (parsed.ok) return parsed.flow;
  ctx.addIssue({ code: "custom", message: parsed.problems[0]?.message ?? "invalid_document" });
  return z.NEVER;
});

/** GET/POST/PUT /api/flows/{id}, duplicate, move, clone → FlowDetail (`triggers` only from GET). */
export const flowAnswer: z.ZodType<FlowDetail, unknown> = z.object({ ...flowSummaryShape, draft: flowDocumentAnswer, problems: z.array(flowProblemAnswer), triggers: flowTriggersAnswer.optional() });

/** Parses a SharedFlowDetail. */
export const sharedFlowAnswer: z.ZodType<SharedFlowDetail, unknown> = z.object({
  flow: z.object({ ...flowSummaryShape, companyName: z.string() }),
  draft: flowDocumentAnswer,
  canClone: z.boolean(),
  reason: z.enum(SHARE_REFUSALS).optional(),
});
