// `home-agent plugins --help`: its text alone, so help loads none of the command's code (nor the MCP SDK).
import type { CommandHelp } from '../../command-line/command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../../command-line/common-flag-help.ts';

/** The MCP-client plugin's subcommands: OAuth 2.1 sign-in to a remote MCP server from the terminal. */
export const PLUGINS_HELP: CommandHelp = {
  name: 'plugins',
  summary: 'sign in to a remote MCP server (OAuth 2.1), or sign out',
  usage: ['plugins login mcp-NAME [--data-dir DIR] [--mcp-config FILE]', 'plugins logout mcp-NAME [--data-dir DIR]'],
  description: [
    'login: signs in to the Streamable HTTP server NAME of mcp.json that asks for it. Prints the address to open',
    'in a browser and waits (up to 10 minutes) for the browser to come back to a listener on 127.0.0.1. While the',
    'desktop app or serve runs this home, that app signs in: it keeps the tokens (the desktop app in the OS',
    'keychain) and uses the server at once. Otherwise the tokens go to the data folder (mcp-oauth-NAME.json,',
    'readable by you only), and the desktop app moves them into its keychain when it starts; never in mcp.json or',
    'a log. logout: removes them. Exit status: 0 done, 1 the sign-in failed or timed out, 2 a wrong command line',
    'or a server that is not a Streamable HTTP server of mcp.json.',
  ].join('\n'),
  options: [
    DATA_DIR_OPTION_HELP,
    {
      flag: '--mcp-config FILE',
      text: 'The MCP config to read the server from, in place of the data folder’s mcp.json.',
    },
  ],
  examples: [
    { command: 'home-agent plugins login mcp-notes', text: 'Sign in to the server "notes" of mcp.json.' },
    { command: 'home-agent plugins logout mcp-notes', text: 'Sign out: its tokens are removed.' },
  ],
};
