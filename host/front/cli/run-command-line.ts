import { UsageError, type CliIo } from '../command-line/cli-io.ts';
import { safeLines } from '../../../core/text/safe-text.ts';
import { closestWord } from './closest-word.ts';
import { formatHelp, type CommandHelp } from '../command-line/command-help.ts';
import { explainUsageError } from './explain-usage-error.ts';
import { joinNegativeValues } from './join-negative-values.ts';
import { watchOutput } from './watch-output.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';

/** A command: runs with its arguments and streams, resolves with the exit status. */
export type Command = (argv: string[], io: CliIo) => Promise<number>;

/** One command: its help and its code, each loaded when needed (a command's help lives in its own module). */
export interface CommandEntry {
  help: () => Promise<CommandHelp>;
  run: () => Promise<Command>;
}

/** Every command by name, in the overview's order. */
export type CommandTable = Readonly<Record<string, CommandEntry>>;

/** The overview: every command with its summary, and where each one's help is. */
async function overview(commands: CommandTable): Promise<string> {
  const helps = await Promise.all(Object.values(commands).map((entry) => entry.help()));
  const width = Math.max(...helps.map((help) => help.name.length)) + 2;
  return [
    `Home Agent ${HOME_AGENT_VERSION} — an LLM agent for the devices of a home.`,
    '',
    'Usage: home-agent <command> [options]',
    '',
    'Commands:',
    ...helps.map((help) => `  ${help.name.padEnd(width)}${help.summary}`),
    '',
    'Every command’s options and examples: home-agent <command> --help',
    'Try it with simulated devices: home-agent ask --sim "turn on all lamps"',
    '',
  ].join('\n');
}

/** Whether the command line asks for help (a `--help` or `-h` before any `--`). */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((argument) => argument === '--help' || argument === '-h');
}

/**
 * Runs the `home-agent` command line with `commands`; SIGINT/SIGTERM abort the running command, and so does the reader of stdout going
 * away (then it ends with 0, quietly). Never throws: errors become exit codes (2 after a wrong
 * command line, with that command's usage; 1 for any other failure, without it).
 */
export async function runCommandLine(
  commands: CommandTable,
  argv: string[],
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): Promise<number> {
  const controller = new AbortController();
  const output = watchOutput(streams, () => controller.abort(new Error('the reader of the output went away')));
  const status = await run(commands, argv, streams, controller);
  return output.readerGone() ? 0 : status;
}

async function run(
  commands: CommandTable,
  argv: string[],
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  controller: AbortController,
): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    streams.stderr.write(await overview(commands));
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const entry = topic === undefined ? undefined : commands[topic];
    streams.stdout.write(entry ? formatHelp(await entry.help()) : await overview(commands));
    return 0;
  }
  if (name === '--version') {
    streams.stdout.write(`${HOME_AGENT_VERSION}\n`);
    return 0;
  }
  const entry = commands[name];
  if (!entry) {
    const suggestion = closestWord(name, Object.keys(commands));
    streams.stderr.write(
      `home-agent: unknown command '${name}'.${suggestion ? ` Did you mean ${suggestion}?` : ''}\nCommands: ${Object.keys(commands).join(', ')}. More: home-agent --help\n`,
    );
    return 2;
  }
  const help = await entry.help();
  if (asksForHelp(rest)) {
    streams.stdout.write(formatHelp(help));
    return 0;
  }
  const stop = (): void => controller.abort(new Error('stopped by a signal'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const command = await entry.run();
    return await command(joinNegativeValues(rest), { ...streams, signal: controller.signal });
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      streams.stderr.write(safeLines(explainUsageError(help, error)));
      return 2;
    }
    // A failure may quote what a device or a person named (a refused hello, a path): shown safely.
    streams.stderr.write(`home-agent ${name}: ${safeLines((error as Error)?.message ?? String(error))}\n`);
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
