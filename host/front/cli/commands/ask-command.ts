import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { compactJson } from '../../../../core/tools/tool-result.ts';
import { commonFlagOptions, readCommonFlags } from '../../command-line/common-flags.ts';
import { startHost } from '../../../app/start-host.ts';
import { stderrLog, UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { PeopleOutput } from '../people-output.ts';
import { askOnTerminal, scriptDenial } from '../terminal-approvals.ts';
import { apiContract } from '../../../contract/api-contract.ts';
import { toolContextWarning } from '../../../plugins/tool-context-warning.ts';
import { PLUGIN_READY_WAIT_MS } from '../../../plugins/plugin-parts.ts';
import { resolveDataDir } from '../../../config/data-dir.ts';
import { linkPathOf } from '../../../link/link-path.ts';
import { openLinkDoor } from '../../../link/find-home-holder.ts';
import { homeShapingFlags } from '../../command-line/home-shaping-flags.ts';
import { askThroughHost } from './ask-through-host.ts';

/** The options of `ask`, besides the shared ones. */
const askOptions = {
  ...commonFlagOptions,
  json: { type: 'boolean' },
  conversation: { type: 'string' },
  'approve-all': { type: 'boolean' },
  standalone: { type: 'boolean' },
} as const;

/** The flags `ask` keeps for its own turn when it goes through the running host. */
const THROUGH_HOST_FLAGS = [
  'data-dir',
  'json',
  'conversation',
  'approve-all',
  'standalone',
  'script',
  'provider',
  'model',
  'base-url',
  'api-key-env',
  'help',
];

/**
 * `home-agent ask`: runs one turn. With `--json`, stdout carries one JSON event per line (a stable
 * contract). Exit status 0 when the turn ends `done`, 1 otherwise, 2 for a wrong command line.
 */
export async function runAskCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: askOptions, allowPositionals: true, strict: true });
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('ask needs a request, e.g. home-agent ask --sim "turn on all lamps"');
  const conversationId = values.conversation ?? randomUUID();
  // The same bound as every API input, so an id no front end could send is not stored from here either.
  if (!apiContract['conversations/events'].input.shape.conversationId.safeParse(conversationId).success)
    throw new UsageError(`--conversation: a conversation id has 1 to 200 characters (got ${conversationId.length})`);
  const flags = readCommonFlags(values);
  if (values.standalone !== true) {
    const opened = await openLinkDoor(linkPathOf(resolveDataDir(flags.dataDir)).path, 'turn', {
      command: 'home-agent ask',
    });
    if (opened && !opened.welcome.ok) throw new Error(opened.welcome.error);
    if (opened) {
      const shaping = homeShapingFlags(values, THROUGH_HOST_FLAGS);
      if (shaping.length > 0) {
        opened.socket.destroy();
        throw new UsageError(
          `${opened.welcome.holder.command} (pid ${opened.welcome.holder.pid}) runs this home, so this turn goes through it, with its devices and settings: ${shaping.join(', ')} would shape a home of this process's own. Leave ${shaping.length > 1 ? 'them' : 'it'} out (change settings in the app), or add --standalone`,
        );
      }
      return askThroughHost({
        socket: opened.socket,
        holder: opened.welcome.holder,
        conversationId,
        prompt,
        flags,
        json: values.json === true,
        approveAll: values['approve-all'] === true,
        io,
        peopleOutput: () => peopleOutputOptions(io),
      });
    }
  }
  const log = stderrLog(io);
  // A reader that goes away (`| head`) stops the turn instead of crashing the process.
  const stop = new AbortController();
  const signal = AbortSignal.any([io.signal, stop.signal]);
  const onWriteError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') stop.abort(new Error('the output was closed'));
  };
  io.stdout.on?.('error', onWriteError);
  // On a terminal the person is asked; from a script nobody can be, so such tools are denied (saying
  // why and what would allow them) unless approved in advance or by a standing approval.
  const onTerminal = process.stdin.isTTY === true;
  const host = await startHost({
    ...flags,
    transport: 'cli',
    command: 'home-agent ask',
    log,
    signal,
    approvalPolicy: values['approve-all'] ? 'allow' : onTerminal ? 'ask' : 'deny',
    approvalDenial: scriptDenial,
  });
  const stopAsking =
    onTerminal && !values['approve-all']
      ? askOnTerminal({
          input: process.stdin,
          output: io.stderr,
          subscribe: (listener) => host.events.subscribe(listener),
          answer: async (answer) => host.handlers['approval/answer'](answer),
          signal,
        })
      : undefined;
  const people = values.json ? undefined : new PeopleOutput(peopleOutputOptions(io));
  try {
    if (host.modelNotice && !values.json) log(host.modelNotice);
    // The request carries the servers' tools, so it waits for each enabled server (10 s at most).
    for (const name of await host.pluginParts.whenSettled({ signal }))
      log(
        `${name} is still starting after ${PLUGIN_READY_WAIT_MS / 1000} s; this turn goes on, and its calls wait for it`,
      );
    const model = await host.models.current().catch(() => undefined);
    const crowded =
      model &&
      (await toolContextWarning({
        plugins: host.plugins.enabledPlugins(),
        model,
        context: host.context,
        settings: host.settings(),
        signal,
      }));
    if (crowded) log(crowded);
    const unsubscribe = host.events.subscribe((event: AgentEvent) => {
      if (stop.signal.aborted) return;
      if (people) people.handle(event);
      // The same JSON value, with what could act on a terminal written as escapes (compactJson).
      else io.stdout.write(`${compactJson(event)}\n`);
    });
    const outcome = await host.agent.runTurn({ conversationId, text: prompt, signal });
    unsubscribe();
    if (!values.json) {
      if (outcome.reason !== 'done')
        log(`the turn ended ${outcome.reason}${outcome.error ? `: ${outcome.error}` : ''}`);
      // The last line on stderr: how to go on with this conversation.
      log(`conversation ${conversationId} — continue it with: home-agent ask --conversation ${conversationId} "…"`);
    }
    return outcome.reason === 'done' ? 0 : 1;
  } finally {
    people?.dispose();
    io.stdout.off?.('error', onWriteError);
    stopAsking?.();
    await host.dispose();
  }
}

/** Live rows only on a real terminal that can move its cursor. */
function peopleOutputOptions(io: CliIo): ConstructorParameters<typeof PeopleOutput>[0] {
  const stdout = io.stdout as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  const write = (text: string): void => void io.stdout.write(text);
  if (stdout.isTTY !== true || process.env.TERM === 'dumb') return { write };
  return { write, terminal: { columns: () => stdout.columns ?? 80 } };
}
