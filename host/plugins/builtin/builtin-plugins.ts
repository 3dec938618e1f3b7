import type { HostPluginManifest } from '../plugin-part.ts';
import { mcpClientPlugin, type McpClientOptions } from '../mcp/mcp-client-plugin.ts';
import { sequencesHostPlugin } from '../sequences/sequences-host-plugin.ts';

/** What a run may tell the built-in plugins (flags of the front ends), among the host's options. */
export type BuiltinPluginOptions = McpClientOptions;

/**
 * The built-in plugins the host composes after its own (system, channels, devices), in this order:
 * the registry lists them so. A plugin adds its entry here, and its data-only parts (settings rows,
 * status shape) in host/contract/builtin/builtin-plugin-contract.ts.
 */
export const BUILTIN_PLUGINS: readonly HostPluginManifest<BuiltinPluginOptions>[] = [
  sequencesHostPlugin,
  mcpClientPlugin,
];
