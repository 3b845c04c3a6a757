/**
 * zod validation at the edge (STYLE habit 1). `zv("json", schema)` parses the request part and puts
 * the typed value on `c.req.valid(target)`; a failure throws the 400 `validation_failed` answer with
 * each failing field named, before the handler writes anything.
 */
import { validator } from "hono/validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { validationError } from "./errors";

export function zv<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return validator(target, async (value): Promise<z.output<T>> => {
    // reportInput: zod 4 drops `issue.input` by default, and validationError needs it to tell a
    // missing field ("required") from a wrong one (e.g. text where a file belongs: the schema's code).
    const result = await schema.safeParseAsync(value, { reportInput: true });
    if (!result.success) throw validationError(result.error);
    return result.data;
  });
}
