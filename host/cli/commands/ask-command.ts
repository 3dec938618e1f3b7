import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { commonFlagOptions, readCommonFlags } from '../common-flags.ts';
import { bootHost } from '../../app/boot-host.ts';
import { UsageError, type CliIo } from '../cli-io.ts';
import { formatEventForPeople } from '../format-event.ts';
import { apiContract } from '../../contract/api-contract.ts';

export const ASK_USAGE = `home-agent ask [--provider scripted|demo|openai|anthropic|gemini|ollama] [--model M]
  [--base-url URL] [--api-key-env VAR] [--script FILE] [--data-dir DIR] [--sim] [--device PATH]...
  [--tool-order '<JSON list>'] [--conversation ID] [--max-steps N] [--concurrency-cap N] [--approve-all] [--json] "<prompt>"`;

/**
 * `home-agent ask`: runs one turn. With `--json`, stdout carries one JSON event per line (a stable
 * contract). Exit status 0 when the turn ends `done`, 1 otherwise, 2 for a wrong command line.
 */
export async function runAskCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      ...commonFlagOptions,
      json: { type: 'boolean' },
      conversation: { type: 'string' },
      'approve-all': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(`${ASK_USAGE}\n`);
    return 0;
  }
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('ask needs a prompt, e.g. home-agent ask --sim "turn on all lamps"');
  const conversationId = values.conversation ?? randomUUID();
  // The same bound as every API input, so an id no front end could send is not stored from here either.
  if (!apiContract['conversations/events'].input.shape.conversationId.safeParse(conversationId).success)
    throw new UsageError(`--conversation: a conversation id has 1 to 200 characters (got ${conversationId.length})`);
  const flags = readCommonFlags(values);
  const log = (line: string): void => void io.stderr.write(`home-agent: ${line}\n`);
  // Nobody can be asked from a script: tools that need approval are denied unless approved in advance.
  const host = await bootHost({
    flags,
    transport: 'cli',
    log,
    signal: io.signal,
    approvalPolicy: values['approve-all'] ? 'allow' : 'deny',
  });
  try {
    if (host.modelNotice && !values.json) log(host.modelNotice);
    const unsubscribe = host.events.subscribe((event: AgentEvent) => {
      if (values.json) io.stdout.write(`${JSON.stringify(event)}\n`);
      else {
        const text = formatEventForPeople(event);
        if (text) io.stdout.write(text);
      }
    });
    const outcome = await host.agent.runTurn({ conversationId, text: prompt, signal: io.signal });
    unsubscribe();
    if (!values.json && outcome.reason !== 'done')
      log(`the turn ended ${outcome.reason}${outcome.error ? `: ${outcome.error}` : ''}`);
    return outcome.reason === 'done' ? 0 : 1;
  } finally {
    await host.dispose();
  }
}
