// The composition root of the front ends: the `home-agent` commands of the CLI, the web app and the
// MCP server, and what one front end adds to another's command (`serve --mcp`, `token --mcp`). The
// only front-end file that may import several front ends (docs/architecture.md, Layers).
import { runCommandLine, type CommandTable } from './cli/run-command-line.ts';
import { pluginCommandsOf } from './cli/plugin-commands.ts';
import { MCP_CLIENT_COMMANDS } from './cli/mcp-client/mcp-client-commands.ts';

/**
 * The built-in plugins' commands, each declared in its plugin's folder of the CLI; listed here once,
 * in the overview's order, and spread into COMMANDS after `mcp`. Adding one is one entry.
 */
const BUILTIN_PLUGIN_COMMANDS = pluginCommandsOf([MCP_CLIENT_COMMANDS]);

/** Every command, in the overview's order, its help and its code each loaded when needed. Adding one is one entry. */
export const COMMANDS: CommandTable = {
  ask: {
    help: async () => (await import('./cli/commands/ask-help.ts')).ASK_HELP,
    run: async () => (await import('./cli/commands/ask-command.ts')).runAskCommand,
  },
  serve: {
    help: async () => {
      const [{ serveHelp }, { MCP_SERVE_HELP }] = await Promise.all([
        import('./web/serve-help.ts'),
        import('./mcp/mcp-add-on-help.ts'),
      ]);
      return serveHelp([MCP_SERVE_HELP]);
    },
    run: async () => {
      const [{ runServeCommand }, { MCP_SERVE_ADD_ON }, { FRONT_END_DOORS }] = await Promise.all([
        import('./web/serve-command.ts'),
        import('./mcp/mcp-serve-add-on.ts'),
        import('./link-doors.ts'),
      ]);
      return (argv, io) => runServeCommand(argv, io, [MCP_SERVE_ADD_ON], FRONT_END_DOORS);
    },
  },
  mcp: {
    help: async () => (await import('./mcp/mcp-help.ts')).MCP_HELP,
    run: async () => (await import('./mcp/mcp-command.ts')).runMcpCommand,
  },
  ...BUILTIN_PLUGIN_COMMANDS,
  bridge: {
    help: async () => (await import('./cli/commands/bridge-help.ts')).BRIDGE_HELP,
    run: async () => (await import('./cli/commands/bridge-command.ts')).runBridgeCommand,
  },
  sim: {
    help: async () => (await import('./cli/commands/sim-help.ts')).SIM_HELP,
    run: async () => (await import('./cli/commands/sim-command.ts')).runSimCommand,
  },
  models: {
    help: async () => (await import('./cli/commands/models-help.ts')).MODELS_HELP,
    run: async () => (await import('./cli/commands/models-command.ts')).runModelsCommand,
  },
  devices: {
    help: async () => (await import('./cli/commands/devices-help.ts')).DEVICES_HELP,
    run: async () => (await import('./cli/commands/devices-command.ts')).runDevicesCommand,
  },
  export: {
    help: async () => (await import('./cli/commands/export-help.ts')).EXPORT_HELP,
    run: async () => (await import('./cli/commands/export-command.ts')).runExportCommand,
  },
  token: {
    help: async () => {
      const [{ tokenHelp }, { MCP_TOKEN_HELP }] = await Promise.all([
        import('./web/token-help.ts'),
        import('./mcp/mcp-add-on-help.ts'),
      ]);
      return tokenHelp([MCP_TOKEN_HELP]);
    },
    run: async () => {
      const [{ runTokenCommand }, { MCP_TOKEN_CHOICE }] = await Promise.all([
        import('./web/token-command.ts'),
        import('./mcp/mcp-token.ts'),
      ]);
      return (argv, io) => runTokenCommand(argv, io, [MCP_TOKEN_CHOICE]);
    },
  },
  pin: {
    help: async () => (await import('./cli/commands/pin-help.ts')).PIN_HELP,
    run: async () => (await import('./cli/commands/pin-command.ts')).runPinCommand,
  },
  verify: {
    help: async () => (await import('./cli/commands/verify-help.ts')).VERIFY_HELP,
    run: async () => (await import('./cli/commands/verify-command.ts')).runVerifyCommand,
  },
};

/**
 * The `home-agent` command: runs one of COMMANDS. Never throws: errors become exit codes (2 after a
 * wrong command line, with that command's usage; 1 for any other failure).
 */
export function main(
  argv: string[],
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): Promise<number> {
  return runCommandLine(COMMANDS, argv, streams);
}
