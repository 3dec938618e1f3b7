import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { toolOrderBreakage } from '../plugins/tool-order-breakage.ts';
import { toolContextWarning } from '../plugins/tool-context-warning.ts';
import { deadlineSignal } from '../../core/text/deadline-signal.ts';

/** How long the list waits for the model's window to be looked up (a look-up gives up after 2 s). */
const WINDOW_WAIT_MS = 3_000;

/**
 * The plugin table: list (with what each running plugin adds — a server's status, trust and problems —
 * and a warning when the enabled plugins' tool declarations take over half the model's context
 * window), enable or disable between turns (with the toolOrder warning), trust a plugin that
 * can be trusted, and sign in to or out of a plugin's server here (the terminal's `plugins login`).
 */
export function pluginHandlers(
  parts: HostParts,
): ApiHandlersOf<
  'plugins/list' | 'plugins/set-enabled' | 'plugins/set-trusted' | 'plugins/sign-in' | 'plugins/sign-out'
> {
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
            signal: deadlineSignal(WINDOW_WAIT_MS),
          })
        : undefined;
      const problems = parts.pluginParts.problems();
      return {
        plugins: plugins.all().map(({ plugin, enabled }) => ({
          name: plugin.name,
          description: plugin.description,
          enabled,
          tools: plugin
            .tools()
            .map((tool) => tool.name)
            .sort(),
          ...parts.pluginParts.listing(plugin.name, enabled),
        })),
        ...(contextWarning ? { contextWarning } : {}),
        ...(problems.length > 0 ? { problems } : {}),
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
    'plugins/set-trusted': (input) => {
      if (!plugins.all().some(({ plugin }) => plugin.name === input.name))
        throw new ApiError(404, `there is no plugin named '${input.name}'`);
      const result = parts.pluginParts.setTrusted(input.name, input.trusted, input.declarationHash);
      if (typeof result === 'object') throw new ApiError(400, result.refused);
      if (result === 'changed')
        throw new ApiError(
          409,
          `${input.name}'s tools changed since they were shown: look at them again, then trust it if you still want to`,
        );
      return { trusted: input.trusted };
    },
    'plugins/sign-in': async (input) => {
      if (!plugins.all().some(({ plugin }) => plugin.name === input.name))
        throw new ApiError(404, `there is no plugin named '${input.name}'`);
      const result = await parts.pluginParts.signIn(input.name);
      if ('refused' in result) throw new ApiError(400, result.refused);
      return result;
    },
    'plugins/sign-out': async (input) => {
      if (!plugins.all().some(({ plugin }) => plugin.name === input.name))
        throw new ApiError(404, `there is no plugin named '${input.name}'`);
      const result = await parts.pluginParts.signOut(input.name);
      if ('refused' in result) throw new ApiError(400, result.refused);
      return result;
    },
  };
}
