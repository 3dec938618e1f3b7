// `home-agent token --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../common-flag-help.ts';

export const TOKEN_HELP: CommandHelp = {
  name: 'token',
  summary: 'show or replace the web app’s token, or MCP clients’ credential',
  usage: ['token [show|rotate] [--mcp] [--data-dir DIR]'],
  description: [
    'The token `serve` uses when none is given is kept in the data folder (web-token, readable by you',
    'only), so the address it prints, a bookmark and an open tab survive a restart. `show` prints it',
    '(making it the first time); `rotate` replaces it in one step: every address and tab holding the',
    'old one stops working once serve restarts. With --mcp, the same for the credential of MCP clients',
    '(mcp-token): it opens `serve --mcp`’s /mcp and nothing else, and the web token does not open /mcp.',
    'A running serve takes a rotated one at once and ends the sessions opened with the old one. A token file',
    'that is a link, a FIFO or a folder, that another user owns or may read, or that is too large is',
    'refused (here and by serve) with the fix: `chmod 600` it, or `rotate`.',
  ].join('\n'),
  options: [
    { flag: '--mcp', text: 'Show or replace the MCP clients’ credential (mcp-token) instead of the web token.' },
    DATA_DIR_OPTION_HELP,
  ],
  examples: [
    { command: 'home-agent token', text: 'The token of this data folder.' },
    { command: 'home-agent token rotate', text: 'A new token (restart serve to use it).' },
    { command: 'home-agent token show --mcp', text: 'The credential MCP clients send to /mcp.' },
    { command: 'home-agent token rotate --mcp', text: 'A new MCP credential; open MCP sessions end.' },
  ],
};
