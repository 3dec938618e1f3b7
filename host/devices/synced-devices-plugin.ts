import type { Plugin } from '../../core/plugins/plugin.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import { ToolError } from '../../core/tools/tool-error.ts';
import { explainHeldPortNow } from './held-port.ts';

/**
 * The devices plugin with the store looked at first: its tool list, its prompt section, every
 * call's CanUse gate and handler call `check()` (cheap when nothing changed), so a grant revoked by
 * another front end or process applies to the very next call. Its `withheld` answers calls to
 * actions nobody granted. A call that fails because another process holds the device's port says
 * which process (see explainHeldPort) and what to do.
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
    handler: async (args, context) => {
      options.check();
      try {
        return await tool.handler(args, context);
      } catch (error) {
        throw await explainHeld(error, args.device_id);
      }
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

/** A device failure about a held port, with the process that holds it named; any other error as it was. */
async function explainHeld(error: unknown, deviceId: unknown): Promise<unknown> {
  if (!ToolError.isInstance(error) || error.detail === undefined) return error;
  const detail = await explainHeldPortNow({
    text: error.detail,
    ...(typeof deviceId === 'string' ? { device: deviceId } : {}),
  });
  if (detail === undefined) return error;
  return new ToolError({
    ...error.toData(),
    detail,
    hint: 'use the Home Agent that holds the port, or stop it first',
  });
}
