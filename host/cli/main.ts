import { UsageError, type CliIo } from './cli-io.ts';
import { ASK_USAGE, runAskCommand } from './commands/ask-command.ts';
import { SERVE_USAGE, runServeCommand } from './commands/serve-command.ts';
import { HOME_AGENT_VERSION } from '../app/version.ts';

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  ask: async () => runAskCommand,
  serve: async () => runServeCommand,
  sim: async () => (await import('./commands/sim-command.ts')).runSimCommand,
  models: async () => {
    const { runModelsCommand } = await import('./commands/models-command.ts');
    return (argv, io) => runModelsCommand(argv, io);
  },
  devices: async () => (await import('./commands/devices-command.ts')).runDevicesCommand,
  export: async () => (await import('./commands/export-command.ts')).runExportCommand,
  verify: async () => (await import('./commands/verify-command.ts')).runVerifyCommand,
};

const USAGE = `Home Agent ${HOME_AGENT_VERSION} — an LLM agent for the devices of a home.

  ${ASK_USAGE}
  ${SERVE_USAGE}
  home-agent sim [--latency-ms N] [--devices lamp,lamp,thermometer,display]
  home-agent models --provider P [--base-url U] [--api-key-env VAR]
  home-agent devices scan|pair PATH [--alias A]|list|grant|revoke|forget
  home-agent export [--conversation ID] [--format json] [--data-dir DIR]
`;

/** Runs the CLI; SIGINT/SIGTERM abort the running command. Never throws: errors become exit codes. */
export async function main(
  argv: string[],
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    streams.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version') {
    streams.stdout.write(`${HOME_AGENT_VERSION}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    streams.stderr.write(`home-agent: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  const controller = new AbortController();
  const stop = (): void => controller.abort(new Error('stopped by a signal'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const command = await load();
    return await command(rest, { ...streams, signal: controller.signal });
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      streams.stderr.write(`home-agent: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    streams.stderr.write(`home-agent: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
