import { readOrCreateToken } from '../../secrets/token-file.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';
import type { Host } from '../../app/create-host.ts';
import type { FlagValues } from '../../config/read-setting-values.ts';
import { MCP_TOKEN } from './mcp-token.ts';
import { withMcpAccess } from './with-mcp-access.ts';

/**
 * `serve --mcp`: the home's tools also served to MCP clients at `/mcp` (Streamable HTTP), with their
 * own credential, made on first use before anything starts. host/front/front-ends.ts gives it to serve.
 */
export const MCP_SERVE_ADD_ON = {
  options: { mcp: { type: 'boolean' } },
  async prepare(values: FlagValues, dataDir: string) {
    if (values.mcp !== true) return undefined;
    const credential = readOrCreateToken(dataDir, MCP_TOKEN);
    // The MCP SDK is loaded only by a serve that serves MCP.
    const { McpHttpEndpoint } = await import('./mcp-http-endpoint.ts');
    return {
      start(host: Host, options: { log: (line: string) => void; dataDir: string }) {
        const endpoint = new McpHttpEndpoint(host, { version: HOME_AGENT_VERSION, ...options });
        return {
          endpoint,
          handlers: (handlers: Host['handlers']) => withMcpAccess(handlers, endpoint),
          served(url: string): string {
            endpoint.servedAt(`${url}mcp`);
            return `MCP clients: ${url}mcp with the header Authorization: Bearer ${credential}`;
          },
        };
      },
    };
  },
} as const;
