import { argumentBoundProblem, type ArgumentBounds } from './argument-bounds.ts';
import type { ToolDefinition } from './tool-definition.ts';
import { validateArguments } from './validate-arguments.ts';

/** The argument that names a call's device: the person may not move a call to another device. */
export const DEVICE_ARGUMENT = 'device_id';

/** Edited arguments as they will run, and whether they differ from the model's; or why they cannot. */
export type EditedArgumentsCheck =
  { ok: true; args: Record<string, unknown>; changed: boolean } | { ok: false; problem: string };

/**
 * Checks arguments a person edited before allowing a call, as the model's are checked: the input
 * bounds (depth, size), the tool's schema (with the same lenient coercion), and `device_id`
 * unchanged. Keeping the tool and its device keeps the batch's parallel safety: the scheduler's
 * rule reads only the tools' declarations and output channels, and the grant is the same device's.
 */
export function checkEditedArguments(options: {
  tool: Pick<ToolDefinition, 'name' | 'parameters'>;
  modelArgs: Record<string, unknown>;
  edited: Record<string, unknown>;
  bounds?: ArgumentBounds;
}): EditedArgumentsCheck {
  const { tool, modelArgs, edited } = options;
  const breach = argumentBoundProblem(edited, options.bounds);
  if (breach) return { ok: false, problem: `${tool.name}: ${breach.problem}` };
  const before = Object.hasOwn(modelArgs, DEVICE_ARGUMENT) ? modelArgs[DEVICE_ARGUMENT] : undefined;
  const after = Object.hasOwn(edited, DEVICE_ARGUMENT) ? edited[DEVICE_ARGUMENT] : undefined;
  if (!sameJson(before, after))
    return {
      ok: false,
      problem: `${tool.name}: ${DEVICE_ARGUMENT} cannot be edited (the call was asked for ${before === undefined ? 'no device' : JSON.stringify(before)}); deny it and ask for the other device instead`,
    };
  const checked = validateArguments({ toolName: tool.name, schema: tool.parameters, args: edited });
  if (!checked.ok) {
    const { detail, hint } = checked.error.toData();
    return {
      ok: false,
      problem: [detail ?? `${tool.name}: the arguments do not fit its schema`, hint].filter(Boolean).join(' '),
    };
  }
  return { ok: true, args: checked.args, changed: !sameJson(checked.args, modelArgs) };
}

/** Whether two JSON values are the same value (object keys in any order). */
function sameJson(left: unknown, right: unknown): boolean {
  return canonicalJson(left) === canonicalJson(right);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
