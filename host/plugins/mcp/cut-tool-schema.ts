import type { JsonSchema } from '../../../core/tools/json-schema.ts';
import { isRecord } from '../../../core/text/is-record.ts';

/** Levels of schema kept; deeper parts are left open (any value), so no walk over them ever recurses further. */
export const MAX_SCHEMA_NESTING = 64;

/** Characters of a description kept, in a tool's declaration and in each part of its schema. */
export const MAX_DESCRIPTION_CHARACTERS = 2_000;

const TYPES = new Set<string>(['object', 'string', 'number', 'integer', 'boolean', 'array', 'null']);

type Primitive = string | number | boolean;

/**
 * A server's `inputSchema` cut down to the subset `core/tools/json-schema.ts` knows: `type`,
 * `description`, `properties`, `required`, `items`, `enum`, `minimum`, `maximum`,
 * `additionalProperties` (a boolean), `default` (a plain value). Everything else (`$schema`,
 * `$ref`, `format`, …) is dropped, so argument checking and every provider (Gemini refuses unknown
 * keys) see only what they understand; a `const` becomes a one-value `enum`, and a nullable
 * `anyOf`/`oneOf` (one schema or null) becomes that schema. Nesting past 64 levels is left open;
 * `cut` says whether that happened.
 */
export function cutToolSchema(input: unknown): { schema: JsonSchema; cut: boolean } {
  const state = { cut: false };
  const schema = cutLevel(input, 1, state);
  return { schema: { ...schema, type: 'object' }, cut: state.cut };
}

function cutLevel(input: unknown, depth: number, state: { cut: boolean }): JsonSchema {
  if (!isRecord(input)) return {};
  const nullable = onlyNonNullBranch(input);
  if (nullable !== undefined && input.type === undefined) {
    // One level deeper, like any nesting: a chain of anyOf must not recurse without bound either.
    if (depth >= MAX_SCHEMA_NESTING) {
      state.cut = true;
      return {};
    }
    const inner = cutLevel(nullable, depth + 1, state);
    const description = describe(input.description);
    return description !== undefined ? { ...inner, description } : inner;
  }
  const schema: JsonSchema = {};
  const type = typeOf(input.type);
  if (type !== undefined) schema.type = type;
  const description = describe(input.description);
  if (description !== undefined) schema.description = description;
  const values = enumOf(input);
  if (values !== undefined) schema.enum = values;
  if (typeof input.minimum === 'number' && Number.isFinite(input.minimum)) schema.minimum = input.minimum;
  if (typeof input.maximum === 'number' && Number.isFinite(input.maximum)) schema.maximum = input.maximum;
  if (typeof input.additionalProperties === 'boolean') schema.additionalProperties = input.additionalProperties;
  if (isPrimitive(input.default)) schema.default = input.default;
  const nested = isRecord(input.properties) || isRecord(input.items);
  if (nested && depth >= MAX_SCHEMA_NESTING) {
    state.cut = true;
    return schema;
  }
  if (isRecord(input.properties)) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, value] of Object.entries(input.properties)) properties[name] = cutLevel(value, depth + 1, state);
    schema.properties = properties;
  }
  if (Array.isArray(input.required)) {
    const required = [...new Set(input.required.filter((name): name is string => typeof name === 'string'))];
    if (required.length > 0) schema.required = required;
  }
  if (isRecord(input.items)) schema.items = cutLevel(input.items, depth + 1, state);
  return schema;
}

function isPrimitive(value: unknown): value is Primitive {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

/** One type: the type itself, or the one non-null type of a list (`["string", "null"]`). */
function typeOf(value: unknown): JsonSchema['type'] {
  if (typeof value === 'string') return TYPES.has(value) ? (value as JsonSchema['type']) : undefined;
  if (!Array.isArray(value)) return undefined;
  const kinds = value.filter((item): item is string => typeof item === 'string' && TYPES.has(item) && item !== 'null');
  return kinds.length === 1 ? (kinds[0] as JsonSchema['type']) : undefined;
}

function describe(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length > MAX_DESCRIPTION_CHARACTERS ? value.slice(0, MAX_DESCRIPTION_CHARACTERS) : value;
}

/** The allowed values, when every one is a plain value (else none: a check could refuse a valid value). */
function enumOf(input: Record<string, unknown>): Primitive[] | undefined {
  if (isPrimitive(input.const)) return [input.const];
  if (!Array.isArray(input.enum) || input.enum.length === 0) return undefined;
  return input.enum.every(isPrimitive) ? [...input.enum] : undefined;
}

/** The one schema of an `anyOf`/`oneOf` whose other branches are only `{type: "null"}`. */
function onlyNonNullBranch(input: Record<string, unknown>): Record<string, unknown> | undefined {
  const branches = Array.isArray(input.anyOf) ? input.anyOf : Array.isArray(input.oneOf) ? input.oneOf : undefined;
  if (!branches) return undefined;
  const others = branches.filter((branch) => !(isRecord(branch) && branch.type === 'null'));
  return others.length === 1 && isRecord(others[0]) ? others[0] : undefined;
}
