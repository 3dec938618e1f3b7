// What the MCP server adds to the help of `serve` and `token`: text alone, so help loads none of its code.
import type { HelpAddition } from '../command-line/command-help.ts';

/** `serve --mcp`. */
export const MCP_SERVE_HELP: HelpAddition = {
  usage: '[--mcp]',
  description: [
    ' With --mcp it also serves the home’s tools to MCP',
    'clients at /mcp (Streamable HTTP) and prints "MCP clients: http://HOST:PORT/mcp with the header',
    'Authorization: Bearer CREDENTIAL": MCP clients have a credential of their own (home-agent token show',
    '--mcp), which opens /mcp and nothing else; the web token does not open /mcp (see docs/mcp.md).',
  ].join('\n'),
  options: [
    {
      flag: '--mcp',
      text: 'Also serve the tools to MCP clients at /mcp (Streamable HTTP; header Authorization: Bearer with the MCP credential, which home-agent token show --mcp prints).',
    },
  ],
  examples: [
    {
      command: 'home-agent serve --sim --mcp',
      text: 'The same, and MCP clients reach the tools at the /mcp address it prints.',
    },
  ],
};

/** `token show|rotate --mcp`. */
export const MCP_TOKEN_HELP: HelpAddition = {
  summary: ', or MCP clients’ credential',
  usage: '[--mcp]',
  description: [
    ' With --mcp, the same for the credential of MCP clients',
    '(mcp-token): it opens `serve --mcp`’s /mcp and nothing else, and the web token does not open /mcp.',
    'A running serve takes a rotated one at once and ends the sessions opened with the old one.',
  ].join('\n'),
  options: [
    { flag: '--mcp', text: 'Show or replace the MCP clients’ credential (mcp-token) instead of the web token.' },
  ],
  examples: [
    { command: 'home-agent token show --mcp', text: 'The credential MCP clients send to /mcp.' },
    { command: 'home-agent token rotate --mcp', text: 'A new MCP credential; open MCP sessions end.' },
  ],
};
