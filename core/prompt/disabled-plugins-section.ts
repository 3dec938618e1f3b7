import type { Plugin, PromptSection } from '../plugins/plugin.ts';
import { compareCodeUnits } from '../tools/order-tools.ts';

/** How the section that lists the plugins the person turned off begins (a model, the demo planner included, reads it). */
export const DISABLED_PLUGINS_HEADING = 'Plugins the person turned off';

/**
 * The prompt section naming the plugins the person turned off, so a model says a plugin is off
 * instead of that a device or tool does not exist; undefined when every plugin is on.
 */
export function disabledPluginsSection(
  plugins: readonly Pick<Plugin, 'name' | 'description'>[],
): PromptSection | undefined {
  if (plugins.length === 0) return undefined;
  // By name: which plugin was registered first must never show.
  const named = [...plugins].sort((a, b) => compareCodeUnits(a.name, b.name));
  return {
    id: 'disabled-plugins',
    order: 90,
    text: [
      `${DISABLED_PLUGINS_HEADING}: ${named.map((plugin) => plugin.name).join(', ')}.`,
      ...named.map((plugin) => `- ${plugin.name}: ${plugin.description}`),
      'Their tools are not offered now. If a request needs one, say that it is turned off and that the person can turn it on in the Plugins tab.',
    ].join('\n'),
  };
}

/** Pure: the plugins a system prompt says the person turned off (none when it says nothing). */
export function disabledPluginNames(system: string): string[] {
  const line = system.split('\n').find((candidate) => candidate.startsWith(`${DISABLED_PLUGINS_HEADING}: `));
  if (line === undefined) return [];
  return line
    .slice(DISABLED_PLUGINS_HEADING.length + 2)
    .replace(/\.$/, '')
    .split(', ')
    .filter(Boolean);
}
