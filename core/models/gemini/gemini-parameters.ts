import type { JsonSchema } from '../../tools/json-schema.ts';

/**
 * A tool's JSON Schema in the subset Gemini's `parameters` accepts: `additionalProperties` and
 * `default` removed at every level; undefined for an object without properties (Gemini rejects
 * an OBJECT with empty `properties`).
 */
export function geminiParameters(schema: JsonSchema): Record<string, unknown> | undefined {
  if (schema.type === 'object' && Object.keys(schema.properties ?? {}).length === 0) return undefined;
  return clean(schema);
}

function clean(schema: JsonSchema): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' || key === 'default' || value === undefined) continue;
    if (key === 'properties') {
      result.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [name, clean(inner)]),
      );
    } else if (key === 'items') result.items = clean(value as JsonSchema);
    else result[key] = value;
  }
  return result;
}
