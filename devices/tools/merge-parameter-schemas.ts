import { canonicalJson } from '../../core/agent/canonical-json.ts';
import type { JsonSchema } from '../../core/tools/json-schema.ts';

/**
 * A schema that every one of `schemas` fits inside, for one tool serving devices whose declarations
 * differ (relay channels 1–4 beside 1–8 → 1–8): types agree or widen (integer + number → number)
 * or are dropped, enums unite, bounds take the loosest, only what all require stays required.
 * The kernel checks this one; each call is then checked against the addressed device's own schema.
 */
export function mergeParameterSchemas(schemas: readonly JsonSchema[]): JsonSchema {
  const [first, ...rest] = schemas;
  if (first === undefined) return { type: 'object' };
  if (rest.every((schema) => sameSchema(schema, first))) return first;
  const merged: JsonSchema = {};
  const type = mergedType(schemas);
  if (type !== undefined) merged.type = type;
  if (first.description !== undefined) merged.description = first.description;
  if (schemas.every((schema) => schema.enum !== undefined))
    merged.enum = [...new Set(schemas.flatMap((schema) => schema.enum ?? []))];
  if (schemas.every((schema) => schema.minimum !== undefined))
    merged.minimum = Math.min(...schemas.map((schema) => schema.minimum!));
  if (schemas.every((schema) => schema.maximum !== undefined))
    merged.maximum = Math.max(...schemas.map((schema) => schema.maximum!));
  const names = [...new Set(schemas.flatMap((schema) => Object.keys(schema.properties ?? {})))];
  if (names.length > 0) {
    merged.properties = Object.fromEntries(
      names.map((name) => [name, mergeParameterSchemas(schemas.flatMap((schema) => schema.properties?.[name] ?? []))]),
    );
  }
  const required = schemas.map((schema) => new Set(schema.required ?? []));
  const always = [...(required[0] ?? [])].filter((name) => required.every((set) => set.has(name)));
  if (always.length > 0) merged.required = always;
  if (schemas.every((schema) => schema.items !== undefined))
    merged.items = mergeParameterSchemas(schemas.map((schema) => schema.items!));
  if (schemas.every((schema) => schema.additionalProperties === false)) merged.additionalProperties = false;
  return merged;
}

/** Whether two schemas say the same (key order aside). */
export function sameSchema(a: JsonSchema, b: JsonSchema): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function mergedType(schemas: readonly JsonSchema[]): JsonSchema['type'] {
  const types = new Set(schemas.map((schema) => schema.type));
  if (types.size === 1) return schemas[0]!.type;
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  return undefined;
}
