import type { Plugin } from '../plugin.ts';
import type { ToolApi } from '../../tools/tool-api.ts';

/** The system plugin: `system_list_tools`, so a model that guessed a wrong name can recover. */
export function createSystemPlugin(toolApi: () => ToolApi): Plugin {
  return {
    name: 'system',
    description: 'Lists the tools that exist, with their declarations.',
    tools: () => [
      {
        name: 'system_list_tools',
        description: 'List every tool you can call, with whether it is parallel-safe.',
        parameters: { type: 'object', properties: {} },
        parallelSafe: true,
        readOnly: true,
        handler: () => ({
          tools: toolApi()
            .list()
            .map((tool) => ({
              name: tool.name,
              description: tool.description,
              parallelSafe: tool.parallelSafe,
              serial: tool.serial,
            })),
        }),
      },
    ],
  };
}
