// Pure (zod only): the renderer bundles the API contract and the settings table, which spread these in.
// The data half of the built-in plugins' list: the contract sits below host/plugins/ (folder order),
// so the runtime half, host/plugins/builtin/builtin-plugins.ts, cannot hold it.
import { mcpClientSettings } from '../mcp/mcp-client-settings.ts';
import { sequenceSettings } from '../sequences/sequence-settings.ts';
import { mcpPluginStatusFields, notAnMcpServer } from '../mcp/mcp-plugin-status.ts';
import { mcpServeInfo, mcpServeSettings } from '../mcp/mcp-serve-contract.ts';

/**
 * The built-in plugins' settings rows (the sequences plugin, the MCP servers Home Agent uses, the MCP
 * server it is), by where the settings form shows them: the host's settings table spreads each group
 * at its place. A plugin with settings adds its rows here, beside its entry in host/plugins/builtin/builtin-plugins.ts.
 */
export const BUILTIN_PLUGIN_SETTINGS = {
  /** After the reply limits: what one sequence run may spend. */
  afterReplyLimits: { ...sequenceSettings },
  /** After the context window: how long an MCP client's call waits for the person. */
  afterContext: { ...mcpServeSettings },
  /** After the device event rate: the MCP servers' result size and start timeout. */
  afterDevices: { ...mcpClientSettings },
} as const;

/** What `plugins/list` may show of a plugin besides its name, description, switch and tools (its status shape). */
export const BUILTIN_PLUGIN_STATUS = { ...mcpPluginStatusFields };

/** What `app/info` says of the front ends a server adds (where MCP clients reach it). */
export const BUILTIN_APP_INFO = { ...mcpServeInfo };

/** What `plugins/set-trusted` answers (400) for a plugin no built-in plugin trusts. */
export const notTrustable: (name: string) => string = notAnMcpServer;

/** Who besides the model may call a tool, in words (help texts name them). */
export const BUILTIN_TOOL_CALLERS = 'an MCP client, a sequence';
