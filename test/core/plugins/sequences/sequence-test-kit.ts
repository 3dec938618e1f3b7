import type { ToolDefinition } from '../../../../core/tools/tool-definition.ts';
import { ToolError } from '../../../../core/tools/tool-error.ts';

/** A promise with its resolve outside, to synchronise on events instead of sleeps. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Small real tools that record what they were called with. */
export function createTestTools() {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const gateCallers: string[] = [];
  const record = (name: string, args: Record<string, unknown>): void => void calls.push({ name, args });
  const tools: ToolDefinition[] = [
    {
      name: 'thermo__read',
      description: 'Read the temperature.',
      parameters: { type: 'object', properties: {} },
      parallelSafe: true,
      handler: (args) => {
        record('thermo__read', args);
        return { celsius: 23 };
      },
    },
    {
      name: 'echo',
      description: 'Returns its arguments.',
      parameters: { type: 'object', properties: {} },
      parallelSafe: true,
      handler: (args) => {
        record('echo', args);
        return args;
      },
    },
    {
      name: 'broken',
      description: 'Always fails.',
      parameters: { type: 'object', properties: {} },
      handler: () => {
        record('broken', {});
        throw new ToolError({ reason: 'device_offline', detail: 'the broken device is unplugged' });
      },
    },
    {
      name: 'lamp__set',
      description: 'Switch a lamp; only lamp-1 is granted.',
      parameters: {
        type: 'object',
        properties: { device_id: { type: 'string' }, on: { type: 'boolean' } },
        required: ['device_id'],
      },
      canUse: (context, args) => {
        gateCallers.push(context.caller);
        return args.device_id === 'lamp-1'
          ? null
          : new ToolError({
              reason: 'unauthorized',
              field: 'device_id',
              detail: `not granted: ${String(args.device_id)}`,
            });
      },
      handler: (args) => {
        record('lamp__set', args);
        return { device_id: args.device_id, on: args.on };
      },
    },
    {
      name: 'output_send__chat',
      description: 'Send to the chat.',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      outputChannel: 'chat',
      handler: (args) => record('output_send__chat', args),
    },
    {
      name: 'display__show',
      description: 'Show text on the hall display (an output channel by declaration, not by name).',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      outputChannel: 'hall-display',
      handler: (args) => record('display__show', args),
    },
  ];
  return { tools, calls, gateCallers, names: () => calls.map((call) => call.name) };
}
