import { describe, expect, it } from 'vitest';
import { createSystemPlugin } from '../../../core/plugins/builtin/system-plugin.ts';
import { createToolApi } from '../../../core/batch/create-tool-api.ts';
import type { ToolCallContext, ToolDefinition } from '../../../core/tools/tool-definition.ts';

const context = {
  signal: new AbortController().signal,
  extra: {},
  attachMedia: () => {},
} as unknown as ToolCallContext;

describe('createSystemPlugin', () => {
  it('lists every tool with its declarations, so a model that guessed a wrong name can recover', async () => {
    const tools: ToolDefinition[] = [
      {
        name: 'lamp__set',
        description: 'Switch a lamp.',
        parameters: { type: 'object' },
        serial: true,
        handler: () => null,
      },
      {
        name: 'thermo__read',
        description: 'Read a thermometer.',
        parameters: { type: 'object' },
        parallelSafe: true,
        handler: () => null,
      },
    ];
    const plugin = createSystemPlugin(() => createToolApi({ tools: () => [...tools, ...plugin.tools()] }));
    const list = plugin.tools()[0];
    expect(list).toMatchObject({ name: 'system_list_tools', parallelSafe: true });
    expect(await list?.handler({}, context)).toEqual({
      tools: [
        { name: 'lamp__set', description: 'Switch a lamp.', parallelSafe: false, serial: true },
        { name: 'thermo__read', description: 'Read a thermometer.', parallelSafe: true, serial: false },
        {
          name: 'system_list_tools',
          description: 'List every tool you can call, with whether it is parallel-safe.',
          parallelSafe: true,
          serial: false,
        },
      ],
    });
  });
});
