import type { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import { ToolError } from '../../core/tools/tool-error.ts';

/**
 * The not-found answer to a call of a tool whose plugin is turned off (here or by another process
 * on the data folder), naming the plugin; undefined when no turned-off plugin has such a tool.
 */
export function turnedOffTool(plugins: PluginRegistry, name: string): ToolError | undefined {
  const owner = plugins.disabledPlugins().find((plugin) => plugin.tools().some((tool) => tool.name === name));
  if (owner === undefined) return undefined;
  return new ToolError({
    reason: 'not_found',
    detail: `${name} is not offered: it belongs to the plugin '${owner.name}', which is turned off.`,
    hint: 'Call system_list_tools to see the tools that exist; do not retry this name unless the person turns the plugin on again.',
  });
}
