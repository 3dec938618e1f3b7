import type { Plugin } from '../../core/plugins/plugin.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import type { ToolError } from '../../core/tools/tool-error.ts';

/**
 * The devices plugin with the store looked at first: its tool list, its prompt section, every
 * call's CanUse gate and handler call `check()` (cheap when nothing changed), so a grant revoked by
 * another front end or process applies to the very next call. Its `withheld` answers calls to
 * actions nobody granted.
 */
export function syncedDevicesPlugin(
  plugin: Plugin,
  options: { check: () => void; withheld: (name: string) => ToolError | undefined },
): Plugin {
  const wrap = (tool: ToolDefinition): ToolDefinition => ({
    ...tool,
    canUse: (context, args) => {
      options.check();
      return tool.canUse ? tool.canUse(context, args) : null;
    },
    handler: (args, context) => {
      options.check();
      return tool.handler(args, context);
    },
  });
  return {
    name: plugin.name,
    description: plugin.description,
    tools: () => {
      options.check();
      return plugin.tools().map(wrap);
    },
    promptSections: () => {
      options.check();
      return plugin.promptSections?.() ?? [];
    },
    withheld: (name) => {
      options.check();
      return options.withheld(name);
    },
    ...(plugin.dispose ? { dispose: () => plugin.dispose?.() } : {}),
  };
}
