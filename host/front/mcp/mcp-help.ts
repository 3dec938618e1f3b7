// `home-agent mcp --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../command-line/command-help.ts';
import { DEVICE_AND_DATA_FLAG_HELP, SETTING_FLAG_HELP } from '../command-line/common-flag-help.ts';
import { settingsTable, type SettingKey } from '../../contract/settings-table.ts';
import { ONE_HOME_TEXT, STANDALONE_FLAG_HELP } from '../command-line/one-home-help.ts';

/** The settings that change what `mcp` does (no model runs here). */
export const MCP_SETTINGS: readonly SettingKey[] = [
  'mcpApprovalWaitMs',
  'toolTimeoutMs',
  'deviceEventsPerSecond',
  'mcpMaxResultBytes',
  'maxToolArgumentBytes',
];

export const MCP_HELP: CommandHelp = {
  name: 'mcp',
  summary: 'serve the home’s tools to an MCP client (Claude Desktop, Cursor, VS Code) over stdio',
  usage: ['mcp [--sim] [--device PATH…] [--data-dir DIR] [--mcp-config FILE] [options]'],
  description: [
    'Speaks the Model Context Protocol on stdin and stdout, for an agent app that starts it (see',
    'docs/mcp.md for the Claude Desktop entry): stdout carries the protocol only, everything else goes',
    'to stderr. The client is offered the tools the agent would be — only granted device actions, the',
    'output channels, sequences — each marked readOnlyHint / destructiveHint, and every call goes',
    'through the same gates: grants, arguments, timeouts. A call that needs a person’s approval waits',
    'for an answer in a Home Agent window on the same data folder (the app, or serve) and is refused',
    'when nobody answers within --mcp-approval-wait-ms. Each call is journaled as its own turn of the',
    'conversation "MCP: CLIENT-NAME". Runs until the client closes stdin.',
    ONE_HOME_TEXT,
    'With no host running, this process hosts the home until a window starts: the window takes it',
    'over and the MCP session goes on through it; when that host stops, this process hosts again.',
  ].join('\n'),
  options: [
    ...SETTING_FLAG_HELP.filter((option) =>
      MCP_SETTINGS.some((key) => option.flag.startsWith(`--${settingsTable[key].flag} `)),
    ),
    ...DEVICE_AND_DATA_FLAG_HELP.filter((option) => !option.flag.startsWith('--script')),
    STANDALONE_FLAG_HELP,
  ],
  examples: [
    {
      command: 'home-agent mcp --sim',
      text: 'The simulated home for an MCP client: its lamps, thermometer and display.',
    },
    {
      command: 'home-agent mcp --data-dir ~/.local/share/home-agent',
      text: 'The paired devices of that data folder, with the grants given in the app.',
    },
  ],
};
