import { ToolError } from '../../../core/tools/tool-error.ts';
import { safeText } from '../../../core/text/safe-text.ts';
import type { DeviceTool } from '../../protocol/frame-schema.ts';

const MAX_LISTED = 600;

/**
 * The `set` action of a convention device: `on` (true or false), and `output` naming which one
 * when the device has several (`state_l1`, `state_l2`). It completes when the device's state
 * confirms it, so it says so; a device with no state to read completes unconfirmed.
 */
export function setTool(options: { thing: string; outputs?: readonly string[]; confirms: boolean }): DeviceTool {
  const outputs = options.outputs ?? [];
  return {
    name: 'set',
    description: [
      `Switch the ${options.thing} on or off.`,
      options.confirms
        ? 'Completes when the device reports its new state.'
        : 'The device reports no state: the result says confirmed false once the broker took the command.',
    ].join(' '),
    parameters:
      outputs.length > 1
        ? {
            type: 'object',
            properties: { output: { type: 'string', enum: [...outputs] }, on: { type: 'boolean' } },
            required: ['output', 'on'],
          }
        : { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
    parallelSafe: true,
    serial: false,
  };
}

/** The `read` action: what the device last published (`temperature (°C), humidity (%)`); it only reads. */
export function readTool(options: { what: readonly string[]; query?: boolean }): DeviceTool {
  const listed = safeText(options.what.join(', ')).slice(0, MAX_LISTED);
  return {
    name: 'read',
    description: options.query
      ? `Ask the device for its state (${listed}) and return its answer.`
      : `Read the state the device last published: ${listed}; as_of says when it came.`,
    parameters: { type: 'object', properties: {} },
    parallelSafe: true,
    serial: false,
    readOnly: true,
  };
}

/** The `on` argument of a set call, or a ToolError naming it; the kernel has coerced `"true"` and `1` already. */
export function onArgument(args: Readonly<Record<string, unknown>>, deviceId: string): boolean {
  if (typeof args.on === 'boolean') return args.on;
  throw new ToolError({
    reason: args.on === undefined ? 'required' : 'type',
    field: 'on',
    detail: `${deviceId}: on must be true or false`,
  });
}

/** The `output` argument among `outputs` (the only one when there is one), or a ToolError naming the choices. */
export function outputArgument<T extends { property: string }>(
  args: Readonly<Record<string, unknown>>,
  outputs: readonly T[],
  deviceId: string,
): T {
  if (outputs.length === 1 && args.output === undefined) return outputs[0]!;
  const chosen = outputs.find((output) => output.property === args.output);
  if (chosen) return chosen;
  throw new ToolError({
    reason: args.output === undefined ? 'required' : 'type',
    field: 'output',
    detail: `${deviceId}: output must be one of ${outputs.map((output) => output.property).join(', ')}`,
  });
}

/** A ToolError for an action the device does not offer (the registry checks first; this is the last guard). */
export function noSuchAction(deviceId: string, tool: string): ToolError {
  return new ToolError({ reason: 'failed', detail: `${deviceId} has no action "${tool}"` });
}
