import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { runBatch } from '../../core/batch/run-batch.ts';
import type { PreparedCall } from '../../core/batch/run-tool-call.ts';
import type { AgentEvent, AgentEventInput } from '../../core/events/agent-event.ts';
import { AgentEvents } from '../../core/events/agent-events.ts';
import type { TurnScope } from '../../core/events/turn-scope.ts';
import { InMemoryConversationStore } from '../../core/agent/conversation-store.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';

/** One row of the batch bench: the same batch run in parallel and forced serial, in the same run. */
export interface BatchBenchRow {
  n: number;
  parallelMs: number;
  serialMs: number;
  /** serialMs / parallelMs; null when either run executed fewer than n tools (a failure, not a speed-up). */
  speedup: number | null;
  executedParallel: number;
  executedSerial: number;
  failure?: string;
}

const TOOL_MS = 250;

/** The argument schema every bench tool validates against, so validation is part of the cost. */
const PARAMETERS: ToolDefinition['parameters'] = {
  type: 'object',
  properties: {
    device_id: { type: 'string' },
    on: { type: 'boolean' },
    level: { type: 'integer', minimum: 0, maximum: 100 },
  },
  required: ['device_id', 'on'],
};

function benchTools(count: number, handler: ToolDefinition['handler']): ToolDefinition[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `bench_${String(i).padStart(2, '0')}`,
    description: 'bench tool',
    parameters: PARAMETERS,
    parallelSafe: true,
    handler,
  }));
}

function benchCalls(tools: readonly ToolDefinition[]): PreparedCall[] {
  // '"true"' and '"40"' exercise the lenient coercion, as real model output does.
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return tools.map((tool, i) => ({
    index: i,
    callId: `call_${i}`,
    name: tool.name,
    args: { device_id: `lamp-${i}`, on: 'true', level: '40' },
    tool: byName.get(tool.name),
  }));
}

/** A turn scope like the app's: every event is stamped, journaled in memory and broadcast. */
function journal(signal: AbortSignal): { scope: TurnScope; events: AgentEvent[] } {
  const store = new InMemoryConversationStore();
  const agentEvents = new AgentEvents({ journal: store });
  let seen = 0;
  agentEvents.subscribe(() => void seen++);
  return {
    events: store.events,
    scope: {
      conversationId: 'bench',
      turnId: 'bench',
      signal,
      emit: (input: AgentEventInput) => {
        agentEvents.emit({ ...input, at: Date.now(), conversationId: 'bench', turnId: 'bench' } as AgentEvent);
      },
    },
  };
}

async function timedBatch(options: {
  n: number;
  forceSerial: boolean;
  signal: AbortSignal;
}): Promise<{ ms: number; executed: number; kernelExecuted: number }> {
  let executed = 0;
  const tools = benchTools(options.n, async (_args, context) => {
    await delay(TOOL_MS, undefined, { signal: context.signal });
    executed++;
    return { done: true };
  });
  const { scope, events } = journal(options.signal);
  const start = performance.now();
  await runBatch({
    scope,
    batchId: `bench-${options.n}-${options.forceSerial ? 'serial' : 'parallel'}`,
    step: 1,
    calls: benchCalls(tools),
    pipeline: { defaultTimeoutMs: 30_000 },
    forceSerial: options.forceSerial,
  });
  const ms = performance.now() - start;
  const end = events.find((event) => event.type === 'batch/end');
  return { ms, executed, kernelExecuted: end?.type === 'batch/end' ? end.executed : 0 };
}

/** N tools of 250 ms through the real kernel, parallel against forced serial, counting executed tools. */
export async function benchBatch(options: { n: number; signal: AbortSignal }): Promise<BatchBenchRow> {
  const parallel = await timedBatch({ n: options.n, forceSerial: false, signal: options.signal });
  const serial = await timedBatch({ n: options.n, forceSerial: true, signal: options.signal });
  const row: BatchBenchRow = {
    n: options.n,
    parallelMs: round(parallel.ms),
    serialMs: round(serial.ms),
    speedup: null,
    executedParallel: parallel.executed,
    executedSerial: serial.executed,
  };
  const short = [parallel, serial].some((run) => run.executed < options.n || run.kernelExecuted < options.n);
  if (short)
    row.failure = `executed ${parallel.executed} (parallel) and ${serial.executed} (serial) of ${options.n} tools`;
  else row.speedup = Math.round((serial.ms / parallel.ms) * 100) / 100;
  return row;
}

/**
 * Kernel overhead per call: no-op tools through look-up, gates, validation, scheduling, result
 * normalisation and events into an in-memory journal, over many calls after a warm-up.
 */
export async function benchOverhead(options: {
  batches: number;
  batchSize: number;
  signal: AbortSignal;
}): Promise<{ usPerCall: number | null; calls: number; failure?: string }> {
  let executed = 0;
  const tools = benchTools(options.batchSize, () => {
    executed++;
    return { ok: true };
  });
  const run = async (batches: number): Promise<void> => {
    for (let b = 0; b < batches; b++) {
      const { scope } = journal(options.signal);
      // The look-up is part of the overhead: each batch resolves its calls' tools once, as a step does.
      await runBatch({
        scope,
        batchId: `overhead-${b}`,
        step: 1,
        calls: benchCalls(tools),
        pipeline: { defaultTimeoutMs: 30_000 },
      });
    }
  };
  await run(Math.max(1, Math.floor(options.batches / 10)));
  executed = 0;
  const start = performance.now();
  await run(options.batches);
  const ms = performance.now() - start;
  const total = options.batches * options.batchSize;
  if (executed !== total)
    return { usPerCall: null, calls: total, failure: `executed ${executed} of ${total} no-op calls` };
  return { usPerCall: Math.round(((ms * 1000) / total) * 100) / 100, calls: total };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
