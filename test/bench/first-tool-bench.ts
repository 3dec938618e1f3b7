// How soon the first tool starts: a loopback server speaking Anthropic Messages streams a reply of
// 4 tool calls over 3 s (a content_block_stop every 750 ms), each tool taking 250 ms; the real
// Agent, adapter and kernel run it with early start on and off, in the same run.
import { Agent } from '../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../core/events/agent-events.ts';
import { createAnthropicAdapter } from '../../core/models/anthropic/create-anthropic-adapter.ts';
import { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import { startLoopbackModelServer } from '../helpers/loopback-model-server.ts';
import {
  anthropicBlockStop,
  anthropicEnd,
  anthropicStart,
  anthropicText,
  anthropicToolOpen,
} from '../helpers/anthropic-stream.ts';

const CALLS = 4;
const STREAM_MS = 3_000;
const TOOL_MS = 250;
const RUNS = 2;

/** The figures of one setting: call 0's content_block_stop → its tool/start, and the turn's wall time. */
export interface FirstToolFigures {
  /** Median over the runs, ms. */
  stopToStartMs: number;
  maxStopToStartMs: number;
  turnWallMs: number;
  executed: number;
}

export interface FirstToolBench {
  calls: number;
  streamMs: number;
  toolMs: number;
  runs: number;
  /** Parallel-safe tools (the batch runs parallel once the reply ends). */
  on: FirstToolFigures;
  off: FirstToolFigures;
  /** The same reply with a tool declared serial (the batch goes on one at a time). */
  serial: { on: FirstToolFigures; off: FirstToolFigures };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

async function oneTurn(options: {
  early: 'on' | 'off';
  serial: boolean;
  signal: AbortSignal;
}): Promise<{ stopToStartMs: number; wallMs: number; executed: number }> {
  const server = await startLoopbackModelServer();
  try {
    let stopAt = 0;
    let startAt = 0;
    const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicText(0, 'Checking the four of them.');
          for (let call = 0; call < CALLS; call += 1) {
            const index = call + 1;
            yield anthropicToolOpen({ index, id: `toolu_${call}`, name: 'bench__wait', args: { n: call } });
            await pause(STREAM_MS / CALLS);
            if (call === 0) stopAt = performance.now();
            yield anthropicBlockStop(index);
          }
          yield anthropicEnd();
        },
      },
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicText(0, 'Done.') + anthropicEnd('end_turn');
        },
      },
    );
    const store = new InMemoryConversationStore();
    const events = new AgentEvents({ journal: store });
    let executed = 0;
    events.subscribe((event) => {
      if (event.type === 'tool/start' && event.index === 0 && startAt === 0) startAt = performance.now();
      if (event.type === 'batch/end') executed = event.executed;
    });
    const plugins = new PluginRegistry();
    plugins.register({
      name: 'bench',
      description: 'bench',
      tools: () => [
        {
          name: 'bench__wait',
          description: `waits ${TOOL_MS} ms`,
          parameters: { type: 'object', properties: { n: { type: 'number' } } },
          parallelSafe: true,
          serial: options.serial,
          handler: (_args, context) =>
            new Promise((resolve, reject) => {
              const timer = setTimeout(() => resolve({ waited: TOOL_MS }), TOOL_MS);
              context.signal.addEventListener('abort', () => {
                clearTimeout(timer);
                reject(new Error('stopped'));
              });
            }),
        },
      ],
    });
    const model = createAnthropicAdapter({ baseUrl: server.url, model: 'bench', apiKey: 'loopback', maxRetries: 0 });
    const agent = new Agent({
      model: () => model,
      plugins,
      store,
      events,
      settings: () => ({ earlyToolStart: options.early }),
    });
    const began = performance.now();
    const outcome = await agent.runTurn({ conversationId: 'bench', text: 'check', signal: options.signal });
    const wallMs = performance.now() - began;
    if (outcome.reason !== 'done') throw new Error(`the turn ended ${outcome.reason}: ${outcome.error ?? ''}`);
    return { stopToStartMs: startAt - stopAt, wallMs, executed };
  } finally {
    await server.close();
  }
}

async function figures(options: { early: 'on' | 'off'; serial: boolean; signal: AbortSignal }) {
  const runs: Awaited<ReturnType<typeof oneTurn>>[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await oneTurn(options));
  return {
    stopToStartMs: round(median(runs.map((run) => run.stopToStartMs))),
    maxStopToStartMs: round(Math.max(...runs.map((run) => run.stopToStartMs))),
    turnWallMs: round(median(runs.map((run) => run.wallMs))),
    executed: Math.min(...runs.map((run) => run.executed)),
  };
}

/** Early start on and off, parallel and serial tools, `RUNS` turns each after a warm-up. Throws when a turn fails. */
export async function benchFirstTool(options: { signal: AbortSignal }): Promise<FirstToolBench> {
  const { signal } = options;
  // One turn first, not counted: the adapter's and kernel's first run pays for loading and compiling.
  await oneTurn({ early: 'on', serial: false, signal });
  return {
    calls: CALLS,
    streamMs: STREAM_MS,
    toolMs: TOOL_MS,
    runs: RUNS,
    on: await figures({ early: 'on', serial: false, signal }),
    off: await figures({ early: 'off', serial: false, signal }),
    serial: {
      on: await figures({ early: 'on', serial: true, signal }),
      off: await figures({ early: 'off', serial: true, signal }),
    },
  };
}
