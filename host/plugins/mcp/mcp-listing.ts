import type { PluginStatusFields } from '../plugin-part.ts';
import type { McpPluginStatus } from './mcp-clients.ts';

/** What `plugins/list` shows of an MCP server's plugin: its status and why it is down only while it is enabled. */
export function mcpListing(mcp: McpPluginStatus, enabled: boolean): PluginStatusFields {
  return {
    ...(enabled && mcp.status !== undefined ? { status: mcp.status } : {}),
    trusted: mcp.trusted,
    ...(enabled && mcp.reason !== undefined ? { reason: mcp.reason } : {}),
    ...(enabled && mcp.status === 'sign-in' && mcp.signIn !== undefined
      ? { signInUrl: mcp.signIn.url, signInAgain: mcp.signIn.again }
      : {}),
    ...(mcp.stderr !== undefined ? { stderr: mcp.stderr } : {}),
    ...(mcp.warnings.length > 0 ? { warnings: mcp.warnings } : {}),
    declarationHash: mcp.declarationHash,
  };
}
