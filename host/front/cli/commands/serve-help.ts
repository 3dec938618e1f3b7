// `home-agent serve --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../command-help.ts';
import { DEVICE_AND_DATA_FLAG_HELP, SETTING_FLAG_HELP } from '../common-flag-help.ts';

export const SERVE_HELP: CommandHelp = {
  name: 'serve',
  summary: 'serve the app to browsers on this machine or the home network',
  usage: ['serve [--port P] [--host ADDRESS] [--token T] [--mcp] [options]'],
  description: [
    'Runs the app for browsers: it prints "Home Agent is serving at http://HOST:PORT/#token=TOKEN" and',
    'serves until stopped (Ctrl+C). Every request needs the token; it binds 127.0.0.1 unless --host says',
    'otherwise, and a non-loopback address needs a token. Settings changed in the page apply to the next',
    'turn; flags given here win over them for this run. With --mcp it also serves the home’s tools to MCP',
    'clients at /mcp (Streamable HTTP) and prints "MCP clients: http://HOST:PORT/mcp with the header',
    'Authorization: Bearer CREDENTIAL": MCP clients have a credential of their own (home-agent token show',
    '--mcp), which opens /mcp and nothing else; the web token does not open /mcp (see docs/mcp.md).',
  ].join('\n'),
  options: [
    { flag: '--port P', text: 'The port (default 8123; a free one when 8123 is taken and --port is not given).' },
    { flag: '--host ADDRESS', text: 'The address to listen on (default 127.0.0.1; 0.0.0.0 for the home network).' },
    {
      flag: '--token T',
      text: 'The token browsers must present, 16 characters or more (default: $HOME_AGENT_TOKEN, else the one kept in the data folder, made on first use on loopback, so the address survives restarts; home-agent token shows it, home-agent token rotate replaces it).',
    },
    {
      flag: '--allowed-host NAME',
      text: 'Also accept requests addressed to NAME (a name the server is reached by; repeatable).',
    },
    { flag: '--static DIR', text: 'Serve the page from DIR instead of the built dist/renderer.' },
    {
      flag: '--mcp',
      text: 'Also serve the tools to MCP clients at /mcp (Streamable HTTP; header Authorization: Bearer with the MCP credential, which home-agent token show --mcp prints).',
    },
    ...SETTING_FLAG_HELP,
    ...DEVICE_AND_DATA_FLAG_HELP,
  ],
  examples: [
    { command: 'home-agent serve --sim', text: 'The app with simulated devices; open the address it prints.' },
    {
      command: 'home-agent serve --sim --mcp',
      text: 'The same, and MCP clients reach the tools at the /mcp address it prints.',
    },
    {
      command: 'home-agent serve --host 0.0.0.0 --device /dev/ttyUSB0',
      text: 'On a home server: reachable from the network, with the device on /dev/ttyUSB0.',
    },
  ],
};
