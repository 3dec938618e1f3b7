import type { TokenFileKind } from '../web/token-file.ts';

/** How a person gets the MCP credential: named wherever a client is refused for the lack of it. */
export const SHOW_MCP_TOKEN = '`home-agent token show --mcp`';

/**
 * MCP clients' own credential (`mcp-token` beside `web-token`): it opens `/mcp` and nothing else,
 * kept and checked like the web token.
 */
export const MCP_TOKEN: TokenFileKind = {
  fileName: 'mcp-token',
  label: 'MCP credential',
  rotateCommand: '`home-agent token rotate --mcp`',
};
