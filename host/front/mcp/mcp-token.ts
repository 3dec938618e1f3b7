import type { TokenFileKind } from '../../secrets/token-file.ts';

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

/** `home-agent token show|rotate --mcp`: the MCP credential, given to the token command by host/front/front-ends.ts. */
export const MCP_TOKEN_CHOICE = {
  flag: 'mcp',
  kind: MCP_TOKEN,
  rotated: (file: string) =>
    `home-agent: the new MCP credential is in ${file}. A running home-agent serve --mcp takes only it from now on and ends the sessions opened with the old one at the next request it gets: give MCP clients the new one.`,
};
