import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { toolOrderBreakage } from '../plugins/tool-order-breakage.ts';
import { toolContextWarning } from '../plugins/tool-context-warning.ts';

/** How long the list waits for the model's window to be looked up (a look-up gives up after 2 s). */
const WINDOW_WAIT_MS = 3_000;

/**
 * The plugin table: list (with a warning when the enabled plugins' tool declarations take over half
 * the model's context window), and enable or disable between turns (with the toolOrder warning).
 */
export function pluginHandlers(parts: HostParts): ApiHandlersOf<'plugins/list' | 'plugins/set-enabled'> {
  const { plugins } = parts;
  return {
    'plugins/list': async () => {
      const model = await parts.models.current().catch(() => undefined);
      const contextWarning = model
        ? await toolContextWarning({
            plugins: plugins.enabledPlugins(),
            model,
            context: parts.context,
            settings: parts.settings(),
            signal: AbortSignal.timeout(WINDOW_WAIT_MS),
          })
        : undefined;
      return {
        plugins: plugins.all().map(({ plugin, enabled }) => ({
          name: plugin.name,
          description: plugin.description,
          enabled,
          tools: plugin
            .tools()
            .map((tool) => tool.name)
            .sort(),
        })),
        ...(contextWarning ? { contextWarning } : {}),
      };
    },
    'plugins/set-enabled': (input) => {
      if (!plugins.all().some(({ plugin }) => plugin.name === input.name))
        throw new ApiError(404, `there is no plugin named '${input.name}'`);
      if (!input.enabled) {
        const warning = toolOrderBreakage({ plugins, settings: parts.settings(), disabling: input.name });
        if (warning && input.confirm !== true) return { applied: false, warning };
      }
      plugins.setEnabled(input.name, input.enabled);
      parts.pluginState.setEnabled(input.name, input.enabled);
      parts.notices.emit({ type: 'plugins/changed' });
      return { applied: true };
    },
  };
}
