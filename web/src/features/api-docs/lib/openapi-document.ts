/**
 * The part of an OpenAPI 3.1 document the reference page (/docs/api) shows, parsed with zod from
 * `GET /api/v1/openapi.json` (the document the worker generates from its route schemas,
 * worker/routes/v1.ts), and the helpers that turn JSON Schema into short type labels.
 */
import { z } from "zod";

/** A JSON Schema object as the generator writes them (unknown keywords kept, not shown). */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  example?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};

export const jsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    $ref: z.string().optional(),
    type: z.union([z.string(), z.array(z.string())]).optional(),
    format: z.string().optional(),
    enum: z.array(z.unknown()).optional(),
    const: z.unknown().optional(),
    items: jsonSchema.optional(),
    properties: z.record(z.string(), jsonSchema).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([jsonSchema, z.boolean()]).optional(),
    anyOf: z.array(jsonSchema).optional(),
    oneOf: z.array(jsonSchema).optional(),
    description: z.string().optional(),
    example: z.unknown().optional(),
    default: z.unknown().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    maxItems: z.number().optional(),
  }),
);

const media = z.record(z.string(), z.looseObject({ schema: jsonSchema.optional() }));

export const operationSchema = z.looseObject({
  tags: z.array(z.string()).optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z
    .array(z.looseObject({ name: z.string(), in: z.string(), required: z.boolean().optional(), description: z.string().optional(), schema: jsonSchema.optional() }))
    .optional(),
  requestBody: z.looseObject({ required: z.boolean().optional(), content: media }).optional(),
  responses: z.record(z.string(), z.looseObject({ description: z.string().optional(), content: media.optional() })),
});
export type Operation = z.infer<typeof operationSchema>;

export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  servers: z.array(z.looseObject({ url: z.string() })).optional(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z
    .looseObject({
      schemas: z.record(z.string(), jsonSchema).optional(),
      securitySchemes: z.record(z.string(), z.looseObject({ type: z.string(), name: z.string().optional(), in: z.string().optional(), scheme: z.string().optional(), description: z.string().optional() })).optional(),
    })
    .optional(),
});
export type OpenApiDocument = z.infer<typeof openApiDocument>;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type Method = (typeof METHODS)[number];

/** One operation with its method, path and a stable anchor id. */
export type DocOperation = { method: Method; path: string; anchor: string; operation: Operation };

/** The document's operations grouped by their first tag, in document order. */
export function operationsByTag(doc: OpenApiDocument): { tag: string; operations: DocOperation[] }[] {
  const groups = new Map<string, DocOperation[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const parsed = operationSchema.safeParse(item[method]);
      if (!parsed.success) continue;
      const tag = parsed.data.tags?.[0] ?? "API";
      const list = groups.get(tag) ?? [];
      list.push({ method, path, anchor: `${method}-${path.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}`, operation: parsed.data });
      groups.set(tag, list);
    }
  }
  return [...groups.entries()].map(([tag, operations]) => ({ tag, operations }));
}

/** The component name of a `$ref` (`#/components/schemas/Contact` → `Contact`). */
export function refName(ref: string): string {
  return ref.split("/").pop() ?? ref;
}

/** `schema` with a `$ref` replaced by the component it names (one level), or itself. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  return doc.components?.schemas?.[refName(schema.$ref)] ?? schema;
}

/** A short type label: `string (uuid)`, `Contact[]`, `"text" | "image"`, `string | null`. */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeLabel).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const labels = types.map((type) => {
    if (type === "array") return `${schema.items ? typeLabel(schema.items) : "unknown"}[]`;
    if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") return `{ [key]: ${typeLabel(schema.additionalProperties)} }`;
    if (type === "string" && schema.format) return `string (${schema.format})`;
    return type;
  });
  return labels.length ? labels.join(" | ") : "any";
}

/** Limits worth showing next to a property (`≤ 120 characters`, `1–100`). */
export function limitsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.minLength !== undefined && schema.minLength > 0) out.push(`minLength ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`maxLength ${schema.maxLength}`);
  if (schema.minimum !== undefined) out.push(`minimum ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`maximum ${schema.maximum}`);
  if (schema.maxItems !== undefined) out.push(`maxItems ${schema.maxItems}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}
