import type { AgentSettings } from '../../core/agent/assemble-turn.ts';
import type { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import { TOOL_ORDER_REST } from '../../core/tools/order-tools.ts';

/**
 * Says why disabling a plugin would make every turn fail — `toolOrder` names tools only it
 * provides — or undefined when disabling it is harmless.
 */
export function toolOrderBreakage(options: {
  plugins: PluginRegistry;
  settings: AgentSettings;
  disabling: string;
}): string | undefined {
  const toolOrder = options.settings.toolOrder;
  if (toolOrder === undefined) return undefined;
  const remaining = new Set(
    options.plugins
      .enabledPlugins()
      .filter((plugin) => plugin.name !== options.disabling)
      .flatMap((plugin) => plugin.tools().map((tool) => tool.name)),
  );
  const lost = toolOrder.filter((name) => name !== TOOL_ORDER_REST && !remaining.has(name));
  if (lost.length === 0) return undefined;
  return `toolOrder lists ${lost.map((name) => `'${name}'`).join(', ')}, which only the plugin '${options.disabling}' provides: every turn would fail at prompt assembly until toolOrder is changed. Remove ${lost.length === 1 ? 'it' : 'them'} from toolOrder first, or confirm to disable anyway.`;
}
