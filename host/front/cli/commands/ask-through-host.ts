import { resolve } from 'node:path';
import type { Socket } from 'node:net';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { compactJson } from '../../../../core/tools/tool-result.ts';
import { readLines, writeLine } from '../../../link/link-lines.ts';
import { turnReplySchema, TOOL_NAME_SLOT, type TurnModel } from '../../../link/turn-messages.ts';
import type { LinkHolder } from '../../../link/link-messages.ts';
import type { CommonFlags } from '../../command-line/common-flags.ts';
import { stderrLog, type CliIo } from '../../command-line/cli-io.ts';
import { PeopleOutput } from '../people-output.ts';
import { askOnTerminal, scriptDenial } from '../terminal-approvals.ts';

/**
 * `ask` beside a running host of its data folder: its turn runs in that host (the same devices,
 * grants, approvals and journal; the window shows it), with this command line's model flags and
 * `--approve-all` for this turn only. Output, exit status and the conversation line are as when it
 * runs alone; Ctrl+C stops the turn in the host.
 */
export async function askThroughHost(options: {
  socket: Socket;
  holder: LinkHolder;
  conversationId: string;
  prompt: string;
  flags: CommonFlags;
  json: boolean;
  approveAll: boolean;
  io: CliIo;
  peopleOutput: () => ConstructorParameters<typeof PeopleOutput>[0];
}): Promise<number> {
  const { socket, io, conversationId } = options;
  const log = stderrLog(io);
  const onTerminal = process.stdin.isTTY === true;
  if (!options.json)
    log(`this turn runs in ${options.holder.command} (pid ${options.holder.pid}), which serves this home`);
  const denial = scriptDenial(TOOL_NAME_SLOT);
  writeLine(socket, {
    start: {
      conversationId,
      text: options.prompt,
      ...(modelOf(options.flags) ? { model: modelOf(options.flags) } : {}),
      policy: options.approveAll ? 'allow' : onTerminal ? 'ask' : 'deny',
      denial: { detail: denial.detail, ...(denial.hint !== undefined ? { hint: denial.hint } : {}) },
    },
  });
  const listeners = new Set<(event: AgentEvent) => void>();
  const people = options.json ? undefined : new PeopleOutput(options.peopleOutput());
  let outcome: { reason: string; error?: string } | undefined;
  let refused: string | undefined;
  readLines(socket, (line) => {
    let parsed;
    try {
      parsed = turnReplySchema.safeParse(JSON.parse(line));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const reply = parsed.data;
    if ('refused' in reply) refused = reply.refused;
    else if ('outcome' in reply) outcome = reply.outcome;
    else {
      const event = reply.event as unknown as AgentEvent;
      if (people) people.handle(event);
      else io.stdout.write(`${compactJson(event)}\n`);
      for (const listener of listeners) listener(event);
    }
  });
  const stopAsking =
    onTerminal && !options.approveAll
      ? askOnTerminal({
          input: process.stdin,
          output: io.stderr,
          subscribe: (listener) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
          answer: async (answer) => ({ accepted: writeLine(socket, { answer }) }),
          signal: io.signal,
        })
      : undefined;
  const onStop = (): void => void writeLine(socket, { stop: true });
  io.signal.addEventListener('abort', onStop, { once: true });
  try {
    await new Promise<void>((done) => socket.once('close', () => done()));
  } finally {
    io.signal.removeEventListener('abort', onStop);
    stopAsking?.();
    people?.dispose();
  }
  if (refused !== undefined) {
    log(refused);
    return 1;
  }
  const ended = outcome ?? {
    reason: 'error',
    error: `${options.holder.command} stopped before the turn ended: what it did is in its journal (home-agent ask --conversation ${conversationId} continues it)`,
  };
  if (!options.json) {
    if (ended.reason !== 'done') log(`the turn ended ${ended.reason}${ended.error ? `: ${ended.error}` : ''}`);
    log(`conversation ${conversationId} — continue it with: home-agent ask --conversation ${conversationId} "…"`);
  }
  return ended.reason === 'done' ? 0 : 1;
}

/** The model flags of this command line, for its own turn: undefined when it gave none. */
function modelOf(flags: CommonFlags): TurnModel | undefined {
  const { provider, model, baseUrl, apiKeyEnv } = flags.settings;
  const asked: TurnModel = {
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
    ...(apiKeyEnv !== undefined && process.env[apiKeyEnv] !== undefined ? { apiKey: process.env[apiKeyEnv] } : {}),
    ...(flags.scriptFile !== undefined ? { scriptFile: resolve(flags.scriptFile) } : {}),
  };
  return Object.keys(asked).length > 0 ? asked : undefined;
}
