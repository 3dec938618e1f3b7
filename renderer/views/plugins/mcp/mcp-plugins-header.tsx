import { McpClientsAccess } from './mcp-clients-access.tsx';
import { McpConfigFollowed } from './mcp-config-followed.tsx';

/** What MCP adds above the Plugins tab's list: how MCP clients reach this home, and where MCP servers come from. */
export function McpPluginsHeader() {
  return (
    <>
      <McpClientsAccess />
      <McpConfigFollowed />
    </>
  );
}
