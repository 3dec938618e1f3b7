import { describe, expect, it } from 'vitest';
import { runSequence, type RunSequenceOptions } from '../../../../core/plugins/sequences/run-sequence.ts';
import { CALLS_BETWEEN_YIELDS, DEFAULT_SEQUENCE_BUDGET } from '../../../../core/plugins/sequences/sequence-budget.ts';
import { createSequencesPlugin } from '../../../../core/plugins/sequences/create-sequences-plugin.ts';
import { InMemorySequenceStore } from '../../../../core/plugins/sequences/in-memory-sequence-store.ts';
import type { Sequence } from '../../../../core/plugins/sequences/sequence-schema.ts';
import type { SequenceRunReport } from '../../../../core/plugins/sequences/sequence-run-report.ts';
import type { ToolDefinition } from '../../../../core/tools/tool-definition.ts';
import type { ToolApi } from '../../../../core/tools/tool-api.ts';
import { createToolApi } from '../../../../core/batch/create-tool-api.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A real garbage collection, so the heap measured is what the run holds, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The attack of issue 11 (defect 2): `level_0` calls `level_1` from every one of `fanOut` calls,
 * and so on `depth` levels down, where the last level calls a tool `fanOut` times. Every
 * sequence is valid on its own and the chain passes the depth and cycle checks.
 */
function fanOutSequences(options: { fanOut: number; depth: number }): Sequence[] {
  const sequences: Sequence[] = [];
  for (let level = 0; level < options.depth; level += 1) {
    const last = level === options.depth - 1;
    sequences.push({
      name: `level_${level}`,
      description: `Level ${level} of the fan-out.`,
      groups: [
        {
          id: 'all',
          calls: Array.from({ length: options.fanOut }, () =>
            last ? { tool: 'leaf', args: { level } } : { sequence: `level_${level + 1}` },
          ),
        },
      ],
    });
  }
  return sequences;
}

/** A tool that answers at once (no I/O, no timer): the kind that never lets the event loop turn. */
function leafTool(options: { onCall?: () => void; result?: unknown } = {}) {
  const counter = { calls: 0 };
  const tool: ToolDefinition = {
    name: 'leaf',
    description: 'Answers at once.',
    parameters: { type: 'object', properties: {} },
    parallelSafe: true,
    handler: () => {
      counter.calls += 1;
      options.onCall?.();
      return options.result ?? { ok: 1 };
    },
  };
  return { tool, counter };
}

function runner(tools: ToolDefinition[], sequences: Sequence[]) {
  const toolApi = createToolApi({ tools: () => tools });
  const store = new InMemorySequenceStore(sequences);
  return (options: Partial<RunSequenceOptions> = {}) =>
    runSequence({
      sequence: sequences[0] as Sequence,
      toolApi,
      loadSequence: (name) => store.get(name),
      conversationId: 'conv-1',
      signal: new AbortController().signal,
      ...options,
    });
}

/** Every call report of a run, nested runs included. */
function allCalls(report: SequenceRunReport): SequenceRunReport['groups'][number]['calls'] {
  return report.groups.flatMap((group) =>
    group.calls.flatMap((call) => [call, ...(call.report ? allCalls(call.report) : [])]),
  );
}

describe('sequence budgets', () => {
  it('have sane defaults: 2,000 calls, 256 KiB of results and 120 s per run', () => {
    expect(DEFAULT_SEQUENCE_BUDGET).toEqual({ maxCalls: 2_000, maxResultBytes: 262_144, wallTimeMs: 120_000 });
  });

  it('stop a fan-out of 8, four deep (4,680 calls) at a budget of 500 calls, nested runs included', async () => {
    const leaf = leafTool();
    const run = runner([leaf.tool], fanOutSequences({ fanOut: 8, depth: 4 }));
    const report = await run({ budget: { maxCalls: 500 } });
    const started = allCalls(report).filter((call) => call.status !== 'skipped');
    expect(report).toMatchObject({ ok: false, stopped: 'budget', budget: { budget: 'calls', limit: 500 } });
    expect(started.length).toBeLessThanOrEqual(500);
    expect(leaf.counter.calls).toBeLessThan(500);
  });

  it("end the issue's attack (fan-out 32, four deep: 1,082,400 calls) at the default call budget with bounded memory", async () => {
    const leaf = leafTool();
    const run = runner([leaf.tool], fanOutSequences({ fanOut: 32, depth: 4 }));
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    // Sampled each time a nested run loads: the heap the run holds while it runs, not only after it.
    const store = new InMemorySequenceStore(fanOutSequences({ fanOut: 32, depth: 4 }));
    const report = await run({
      loadSequence: (name) => {
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        return store.get(name);
      },
    });
    collectGarbage();
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
    const heapPeakMb = (heapPeak - heapBefore) / 1e6;
    const reportMb = JSON.stringify(report).length / 1e6;
    console.info(
      `fan-out 32 × 4: ${leaf.counter.calls} tool calls ran; heap +${heapPeakMb.toFixed(1)} MB at its peak, +${heapGrowthMb.toFixed(1)} MB kept; report ${reportMb.toFixed(2)} MB`,
    );
    expect(report).toMatchObject({ stopped: 'budget', budget: { budget: 'calls', limit: 2_000 } });
    expect(leaf.counter.calls).toBeLessThan(2_000);
    // Without the budget 32³ alone cost 1.1 GB; here the whole run stays within a few MB.
    expect(reportMb).toBeLessThan(2);
    expect(heapPeakMb).toBeLessThan(128);
    expect(heapGrowthMb).toBeLessThan(16);
  });

  it('enforce wall time while tools that never yield keep running (the timer alone never fired)', async () => {
    // The clock moves 1 ms per tool call; no timer can fire, since no call ever awaits real work.
    const clock = { now: 0 };
    const leaf = leafTool({ onCall: () => (clock.now += 1) });
    const run = runner([leaf.tool], fanOutSequences({ fanOut: 8, depth: 4 }));
    const report = await run({ budget: { wallTimeMs: 100, maxCalls: 1_000_000 }, now: () => clock.now });
    expect(report).toMatchObject({ ok: false, stopped: 'timeout', budget: { budget: 'wall_time', limit: 100 } });
    // Calls started before the clock passed 100 ms still run: at most one pacing window of them.
    expect(leaf.counter.calls).toBeGreaterThanOrEqual(100);
    expect(leaf.counter.calls).toBeLessThanOrEqual(100 + CALLS_BETWEEN_YIELDS);
  });

  it('enforce wall time on the real clock against tools that block the event loop', async () => {
    const leaf = leafTool({
      onCall: () => {
        const until = Date.now() + 1;
        while (Date.now() < until); // a synchronous handler holding the thread for 1 ms
      },
    });
    const run = runner([leaf.tool], fanOutSequences({ fanOut: 8, depth: 4 }));
    const report = await run({ budget: { wallTimeMs: 30, maxCalls: 1_000_000 } });
    expect(report).toMatchObject({ stopped: 'timeout', budget: { budget: 'wall_time' } });
    // All 4,096 would take over 4 s; the budget stops them within a few dozen.
    expect(leaf.counter.calls).toBeLessThan(4_096);
  });

  it('stop work in progress in a nested run when the wall time runs out', async () => {
    let innerSignal: AbortSignal | undefined;
    const hang: ToolDefinition = {
      name: 'hang',
      description: 'Waits until stopped.',
      parameters: { type: 'object', properties: {} },
      handler: (_args, context) => {
        innerSignal = context.signal;
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve('stopped')));
      },
    };
    const outer: Sequence = {
      name: 'outer',
      description: 'Calls inner.',
      groups: [{ id: 'g', calls: [{ sequence: 'inner' }] }],
    };
    const inner: Sequence = { name: 'inner', description: 'Hangs.', groups: [{ id: 'g', calls: [{ tool: 'hang' }] }] };
    const report = await runner([hang], [outer, inner])({ budget: { wallTimeMs: 50 } });
    expect(innerSignal?.aborted).toBe(true);
    expect(report).toMatchObject({
      stopped: 'timeout',
      groups: [{ calls: [{ status: 'failed', report: { stopped: 'timeout' } }] }],
    });
  });

  it('stop at the result-size budget and keep the report small (an over-budget result is left out)', async () => {
    const big = 'x'.repeat(100_000);
    const leaf = leafTool({ result: { text: big } });
    const sequence: Sequence = {
      name: 'big_results',
      description: 'Eight 100 KB results, then more.',
      groups: [
        { id: 'first', calls: Array.from({ length: 8 }, () => ({ tool: 'leaf' })) },
        { id: 'second', calls: [{ tool: 'leaf' }] },
      ],
    };
    const report = await runner([leaf.tool], [sequence])({ budget: { maxResultBytes: 262_144 } });
    expect(report).toMatchObject({
      ok: false,
      stopped: 'budget',
      budget: { budget: 'result_bytes', limit: 262_144 },
      notStarted: { groups: 1, calls: 1, error: { reason: 'failed' } },
    });
    expect(report.groups).toHaveLength(1);
    expect(JSON.stringify(report).length).toBeLessThan(262_144 + 8 * 200);
    const omitted = report.groups[0]?.calls.filter((call) => JSON.stringify(call.result).includes('left out'));
    expect(omitted?.length).toBeGreaterThan(0);
  });
});

describe('seq_run with a budget', () => {
  function setUp(budget: Parameters<typeof createSequencesPlugin>[0]['budget']) {
    const leaf = leafTool();
    const store = new InMemorySequenceStore(fanOutSequences({ fanOut: 8, depth: 3 }));
    const plugin = createSequencesPlugin({ store, toolApi: () => toolApi, budget });
    const toolApi: ToolApi = createToolApi({ tools: () => [leaf.tool, ...plugin.tools()] });
    const call = (name: string, args: Record<string, unknown>) =>
      toolApi.call({ conversationId: 'conv-1', caller: 'agent', signal: new AbortController().signal }, name, args);
    return { call, leaf };
  }

  it('answers a run stopped by its call budget with a failed ToolError naming the budget and what ran', async () => {
    const { call, leaf } = setUp({ maxCalls: 50 });
    const outcome = await call('seq_run', { name: 'level_0' });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        reason: 'failed',
        detail: expect.stringMatching(/^the sequence level_0 was stopped: it reached its budget of 50 calls per run/),
        hint: expect.stringMatching(/already ran took effect/),
      },
    });
    if (!outcome.ok) expect(outcome.error.detail).toContain(`${leaf.counter.calls} tool calls had run`);
  });

  it('answers a run stopped by its wall time with a timeout ToolError', async () => {
    const { call } = setUp({ wallTimeMs: 0 });
    const outcome = await call('seq_run', { name: 'level_0' });
    expect(outcome).toMatchObject({
      ok: false,
      error: { reason: 'timeout', detail: expect.stringMatching(/budget of 0 ms per run/) },
    });
  });
});
