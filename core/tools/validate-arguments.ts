import type { JsonSchema } from './json-schema.ts';
import { ToolError } from './tool-error.ts';

/** Validated (and leniently coerced) arguments, or the first problem found. */
export type ArgumentCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: ToolError };

/**
 * Validates arguments against a tool's JSON Schema before dispatch: required fields, types, enums,
 * nested objects and arrays. Lenient where models are: `"true"`/`"false"`/`1`/`0` for booleans and
 * numeric strings for numbers are coerced, not rejected. Returns a copy; the input is not changed.
 */
export function validateArguments(options: {
  toolName: string;
  schema: JsonSchema;
  args: Record<string, unknown>;
}): ArgumentCheck {
  try {
    const value = checkValue(
      options.schema.type ? options.schema : { ...options.schema, type: 'object' },
      options.args,
      '',
      options.toolName,
    );
    return { ok: true, args: value as Record<string, unknown> };
  } catch (error) {
    if (ToolError.isInstance(error)) return { ok: false, error };
    throw error;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function typeError(toolName: string, field: string, expected: string, value: unknown): ToolError {
  return new ToolError({
    reason: 'type',
    field: field || undefined,
    detail: `${toolName}: ${field || 'the arguments'} must be ${expected}, got ${describe(value)}`,
    hint: `Call ${toolName} again with ${field || 'the arguments'} as ${expected}.`,
  });
}

function coerceBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  return undefined;
}

function coerceNumber(value: unknown, integer: boolean): number | undefined {
  let number: number | undefined;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) number = Number(value);
  if (number === undefined || !Number.isFinite(number)) return undefined;
  if (integer && !Number.isInteger(number)) return undefined;
  return number;
}

function checkValue(schema: JsonSchema, value: unknown, path: string, toolName: string): unknown {
  let result: unknown = value;
  switch (schema.type) {
    case 'boolean': {
      const coerced = coerceBoolean(value);
      if (coerced === undefined) throw typeError(toolName, path, 'a boolean (true or false)', value);
      result = coerced;
      break;
    }
    case 'number':
    case 'integer': {
      const coerced = coerceNumber(value, schema.type === 'integer');
      if (coerced === undefined)
        throw typeError(toolName, path, schema.type === 'integer' ? 'an integer' : 'a number', value);
      if (schema.minimum !== undefined && coerced < schema.minimum)
        throw typeError(toolName, path, `at least ${schema.minimum}`, value);
      if (schema.maximum !== undefined && coerced > schema.maximum)
        throw typeError(toolName, path, `at most ${schema.maximum}`, value);
      result = coerced;
      break;
    }
    case 'string':
      if (typeof value !== 'string') throw typeError(toolName, path, 'a string', value);
      break;
    case 'null':
      if (value !== null) throw typeError(toolName, path, 'null', value);
      break;
    case 'array': {
      if (!Array.isArray(value)) throw typeError(toolName, path, 'an array', value);
      result = schema.items
        ? value.map((item, i) => checkValue(schema.items as JsonSchema, item, `${path}[${i}]`, toolName))
        : [...value];
      break;
    }
    case 'object':
      result = checkObject(schema, value, path, toolName);
      break;
    default:
      break;
  }
  if (schema.enum && !schema.enum.includes(result as string | number | boolean)) {
    throw new ToolError({
      reason: 'type',
      ...(path ? { field: path } : {}),
      detail: `${toolName}: ${path || 'the value'} must be one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}, got ${describe(value)}`,
      hint: `Use one of the listed values for ${path || 'the value'}.`,
    });
  }
  return result;
}

function checkObject(schema: JsonSchema, value: unknown, path: string, toolName: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw typeError(toolName, path, 'an object', value);
  const input = value as Record<string, unknown>;
  const output: Record<string, unknown> = { ...input };
  for (const name of schema.required ?? []) {
    if (input[name] === undefined || input[name] === null) {
      const field = path ? `${path}.${name}` : name;
      throw new ToolError({
        reason: 'required',
        field,
        detail: `${toolName}: the argument ${field} is required`,
        hint: `Call ${toolName} again with ${field}${schema.properties?.[name]?.type ? ` (${schema.properties[name]?.type})` : ''}.`,
      });
    }
  }
  for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
    if (input[name] === undefined) continue;
    output[name] = checkValue(propertySchema, input[name], path ? `${path}.${name}` : name, toolName);
  }
  return output;
}
