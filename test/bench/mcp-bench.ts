import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runBatch } from '../../core/batch/run-batch.ts';
import { runToolCall, type PreparedCall } from '../../core/batch/run-tool-call.ts';
import type { AgentEvent, AgentEventInput } from '../../core/events/agent-event.ts';
import { AgentEvents } from '../../core/events/agent-events.ts';
import { InMemoryConversationStore } from '../../core/agent/conversation-store.ts';
import type { TurnScope } from '../../core/events/turn-scope.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import { ScriptedModel } from '../../core/models/scripted/scripted-model.ts';
import { createHost } from '../../host/app/create-host.ts';
import { everythingStdioEntry } from '../helpers/mcp/mcp-test-servers.ts';

/** One way of calling: per-call time through the kernel's pipeline, median and p99. */
export interface CallTimes {
  medianUs: number;
  p99Us: number;
}

/** One batch of 8 MCP calls, run as the kernel decides (parallel) and forced serial. */
export interface McpBatchRow {
  tool: string;
  calls: number;
  parallelMs: number;
  serialMs: number;
  /** serialMs / parallelMs; null when a run executed fewer than all its calls (a failure, not a speed-up). */
  speedup: number | null;
  executedParallel: number;
  executedSerial: number;
}

export interface McpBench {
  server: string;
  calls: number;
  /** The same echo, as a local tool through the same pipeline. */
  direct: CallTimes;
  /** server-everything's `echo` over stdio, through the kernel's pipeline (trusted, read-only: no question). */
  mcp: CallTimes;
  /** mcp − direct at the median: what one MCP call over stdio costs beyond the handler (p99s are side by side above). */
  overheadMedianUs: number;
  batches: McpBatchRow[];
  failure?: string;
}

const CALLS = 1_000;
const WARM_UP = 100;
const BATCH = 8;

/**
 * The cost of one MCP call over stdio beside the same handler called in-process, and a batch of 8
 * calls on a trusted read-only server run in parallel and forced serial (echo, and a 250 ms
 * operation), counting the calls that executed. server-everything is the real peer.
 */
export async function benchMcp(options: { signal: AbortSignal }): Promise<McpBench> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-mcp-bench-'));
  const config = path.join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdioEntry() } }));
  const host = await createHost({
    dataDir,
    transport: 'cli',
    model: new ScriptedModel({ replies: [] }),
    log: () => {},
    version: 'bench',
  });
  try {
    await host.pluginParts.whenSettled({ signal: options.signal });
    await host.handlers['plugins/set-trusted']({ name: 'mcp-everything', trusted: true });
    const tools = new Map(host.plugins.enabledTools().map((tool) => [tool.name, tool]));
    const echo = tools.get('mcp__everything__echo');
    const long = tools.get('mcp__everything__trigger-long-running-operation');
    if (!echo || !long) throw new Error('server-everything offered no echo or trigger-long-running-operation');
    const local: ToolDefinition = {
      ...echo,
      name: 'local_echo',
      handler: (args) => `Echo: ${String(args.message)}`,
    };
    const direct = await timeCalls(local, options.signal);
    const mcp = await timeCalls(echo, options.signal);
    const failure =
      direct.failures + mcp.failures > 0
        ? `${direct.failures} local and ${mcp.failures} MCP calls did not succeed`
        : undefined;
    return {
      server: 'server-everything over stdio',
      calls: CALLS,
      direct: direct.times,
      mcp: mcp.times,
      overheadMedianUs: round(mcp.times.medianUs - direct.times.medianUs),
      batches: [
        await batchRow(echo, { message: 'bench' }, options.signal),
        await batchRow(long, { duration: 0.25, steps: 1 }, options.signal),
      ],
      ...(failure ? { failure } : {}),
    };
  } finally {
    await host.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Calls `tool` one after another through the kernel's per-call pipeline; times after a warm-up. */
async function timeCalls(tool: ToolDefinition, signal: AbortSignal): Promise<{ times: CallTimes; failures: number }> {
  const samples: number[] = [];
  let failures = 0;
  for (let i = 0; i < WARM_UP + CALLS; i++) {
    const start = performance.now();
    const run = await runToolCall({
      pipeline: { defaultTimeoutMs: 30_000 },
      call: { index: 0, callId: `c${i}`, name: tool.name, args: { message: `m${i}` }, tool },
      identity: { conversationId: 'bench', turnId: 'bench', batchId: 'bench', callId: `c${i}`, index: 0 },
      authorization: { conversationId: 'bench', caller: 'bench' },
      signal,
    });
    const us = (performance.now() - start) * 1000;
    if (i >= WARM_UP) {
      samples.push(us);
      if (!run.outcome.ok) failures++;
    }
  }
  samples.sort((a, b) => a - b);
  return {
    times: {
      medianUs: round(samples[Math.floor(samples.length / 2)] ?? 0),
      p99Us: round(samples[Math.floor(samples.length * 0.99)] ?? 0),
    },
    failures,
  };
}

/** A batch of 8 calls of `tool`, as the kernel runs it and forced serial; executed from `batch/end`. */
async function batchRow(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<McpBatchRow> {
  const once = async (forceSerial: boolean): Promise<{ ms: number; executed: number; mode: string }> => {
    const { scope, events } = journal(signal);
    const calls: PreparedCall[] = Array.from({ length: BATCH }, (_, index) => ({
      index,
      callId: `b${index}`,
      name: tool.name,
      args,
      tool,
    }));
    const start = performance.now();
    await runBatch({
      scope,
      batchId: `mcp-${forceSerial}`,
      step: 1,
      calls,
      pipeline: { defaultTimeoutMs: 30_000 },
      forceSerial,
    });
    const ms = performance.now() - start;
    const end = events.find((event) => event.type === 'batch/end');
    const begin = events.find((event) => event.type === 'batch/start');
    return {
      ms,
      executed: end?.type === 'batch/end' ? end.executed : 0,
      mode: begin?.type === 'batch/start' ? begin.mode : '?',
    };
  };
  const parallel = await once(false);
  const serial = await once(true);
  const complete = parallel.executed === BATCH && serial.executed === BATCH && parallel.mode === 'parallel';
  return {
    tool: `${tool.name} ${JSON.stringify(args)}`,
    calls: BATCH,
    parallelMs: round(parallel.ms),
    serialMs: round(serial.ms),
    speedup: complete ? round(serial.ms / parallel.ms) : null,
    executedParallel: parallel.executed,
    executedSerial: serial.executed,
  };
}

/** A turn scope whose events are journaled in memory. */
function journal(signal: AbortSignal): { scope: TurnScope; events: AgentEvent[] } {
  const store = new InMemoryConversationStore();
  const agentEvents = new AgentEvents({ journal: store });
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

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
