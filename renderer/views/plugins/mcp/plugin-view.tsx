import type { PluginView } from '../plugin-view.ts';
import type { PluginSummary } from '../../../state/plugins-slice.ts';
import { McpPluginsHeader } from './mcp-plugins-header.tsx';
import { McpConfigProblems } from './mcp-config-problems.tsx';
import { McpServerState } from './mcp-server-state.tsx';

/** An MCP server's plugin row (one that can be trusted) shows its state; other rows nothing. */
function McpPluginRow(props: { plugin: PluginSummary }) {
  return props.plugin.trusted !== undefined ? <McpServerState plugin={props.plugin} /> : null;
}

/** What the MCP client and server add to the Plugins tab. */
export const pluginView: PluginView = { Header: McpPluginsHeader, Problems: McpConfigProblems, Row: McpPluginRow };
