import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { toolOrderBreakage } from '../plugins/tool-order-breakage.ts';
import { toolContextWarning } from '../plugins/tool-context-warning.ts';

/** How long the list waits for the model's window to be looked up (a look-up gives up after 2 s). */
const WINDOW_WAIT_MS = 3_000;

/**
 * The plugin table: list (with each MCP server's status, trust and problems, and a warning when the
 * enabled plugins' tool declarations take over half the model's context window), enable or disable
 * between turns (with the toolOrder warning), and trust an MCP server.
 */
export function pluginHandlers(
  parts: HostParts,
): ApiHandlersOf<'plugins/list' | 'plugins/set-enabled' | 'plugins/set-trusted'> {
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
        plugins: plugins.all().map(({ plugin, enabled }) => {
          const mcp = parts.mcp?.status(plugin.name);
          return {
            name: plugin.name,
            description: plugin.description,
            enabled,
            tools: plugin
              .tools()
              .map((tool) => tool.name)
              .sort(),
            ...(mcp
              ? {
                  ...(enabled && mcp.status !== undefined ? { status: mcp.status } : {}),
                  trusted: mcp.trusted,
                  ...(enabled && mcp.reason !== undefined ? { reason: mcp.reason } : {}),
                  ...(mcp.stderr !== undefined ? { stderr: mcp.stderr } : {}),
                  ...(mcp.warnings.length > 0 ? { warnings: mcp.warnings } : {}),
                  declarationHash: mcp.declarationHash,
                }
              : {}),
          };
        }),
        ...(contextWarning ? { contextWarning } : {}),
        ...(parts.mcp && parts.mcp.problems.length > 0 ? { problems: [...parts.mcp.problems] } : {}),
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
      const result = parts.mcp?.setTrusted(input.name, input.trusted, input.declarationHash) ?? 'not_mcp';
      if (result === 'not_mcp')
        throw new ApiError(400, `${input.name} is not an MCP server's plugin: only MCP servers are trusted or not`);
      if (result === 'changed')
        throw new ApiError(
          409,
          `${input.name}'s tools changed since they were shown: look at them again, then trust it if you still want to`,
        );
      return { trusted: input.trusted };
    },
  };
}
