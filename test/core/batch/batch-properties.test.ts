import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ToolCallContext, ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { lifecycleProblems } from './lifecycle-problems.ts';
import { nextTurn, reasonOf, runWith, untilAborted, type CallSpec as BatchCall } from './batch-helpers.ts';

const BEHAVIOURS = [
  'ok',
  'okSlow',
  'throw',
  'legacyError',
  'deny',
  'timeout',
  'unauthorized',
  'unknown',
  'invalidJson',
] as const;
type Behaviour = (typeof BEHAVIOURS)[number] | 'abortHere';

interface CallSpec {
  behaviour: Behaviour;
  parallelSafe: boolean;
  serial: boolean;
  channel: 'chat' | 'display' | undefined;
}

/** What each behaviour must be answered with (written from the kernel's rules in docs/architecture.md, not read from the kernel). */
const EXPECTED: Record<Behaviour, string> = {
  ok: 'ok',
  okSlow: 'ok',
  throw: 'failed',
  legacyError: 'failed',
  deny: 'denied',
  timeout: 'timeout',
  unauthorized: 'unauthorized',
  unknown: 'not_found',
  invalidJson: 'invalid_json',
  abortHere: 'aborted',
};

/** The scheduler's rule, restated independently: the oracle the kernel is checked against. */
function expectedMode(specs: readonly CallSpec[]): { mode: 'parallel' | 'serial'; serialTool?: string } {
  if (specs.length <= 1) return { mode: 'serial' };
  const known = specs.map((spec, i) => ({ spec, name: `t${i}` })).filter(({ spec }) => spec.behaviour !== 'unknown');
  const declaresSerial = known.find(({ spec }) => spec.serial);
  if (declaresSerial) return { mode: 'serial', serialTool: declaresSerial.name };
  if (known.some(({ spec }) => !spec.parallelSafe)) return { mode: 'serial' };
  const channels = known.flatMap(({ spec }) => (spec.channel ? [spec.channel] : []));
  if (new Set(channels).size < channels.length) return { mode: 'serial' };
  return { mode: 'parallel' };
}

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  behaviour: fc.constantFrom(...BEHAVIOURS),
  parallelSafe: fc.integer({ min: 0, max: 4 }).map((n) => n !== 0),
  serial: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  channel: fc.constantFrom(undefined, undefined, undefined, 'chat', 'display'),
});

const batchSpec = fc
  .record({
    specs: fc.array(callSpec, { minLength: 1, maxLength: 16 }),
    // Half the batches declare every tool parallel-safe, so parallel runs are as common as serial ones.
    allSafe: fc.boolean(),
    abortAt: fc.option(fc.nat({ max: 15 }), { freq: 3 }),
  })
  .map(({ specs: drawn, allSafe, abortAt }) => {
    const specs = allSafe ? drawn.map((spec) => ({ ...spec, parallelSafe: true, serial: false })) : drawn;
    if (abortAt === null || abortAt >= specs.length) return { specs, abortAt: undefined };
    const withAbort = specs.map((spec, i) => (i === abortAt ? { ...spec, behaviour: 'abortHere' as const } : spec));
    return { specs: withAbort, abortAt };
  });

async function runSpecs(specs: readonly CallSpec[]) {
  const controller = new AbortController();
  const started: number[] = [];
  const contextProblems: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const tools: ToolDefinition[] = [];
  const calls: BatchCall[] = [];
  for (const [i, spec] of specs.entries()) {
    const name = spec.behaviour === 'unknown' ? `missing_${i}` : `t${i}`;
    calls.push({
      index: i,
      callId: `call_${i}`,
      name,
      args: { i },
      ...(spec.behaviour === 'invalidJson' ? { argumentsProblem: 'the arguments are not valid JSON' } : {}),
    });
    if (spec.behaviour === 'unknown') continue;
    tools.push({
      name,
      description: name,
      parameters: { type: 'object', properties: { i: { type: 'integer' } }, required: ['i'] },
      parallelSafe: spec.parallelSafe,
      serial: spec.serial,
      ...(spec.channel ? { outputChannel: spec.channel } : {}),
      ...(spec.behaviour === 'timeout' ? { timeoutMs: 2 } : {}),
      canUse: () =>
        spec.behaviour === 'unauthorized' ? new ToolError({ reason: 'unauthorized', detail: 'no grant' }) : null,
      handler: async (_args: Record<string, unknown>, context: ToolCallContext) => {
        started.push(i);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          context.extra.mine = i;
          if (spec.behaviour === 'okSlow') await nextTurn();
          if (spec.behaviour === 'abortHere') {
            controller.abort(new Error('stop'));
            await untilAborted(context.signal);
          }
          if (spec.behaviour === 'timeout') await untilAborted(context.signal);
          if (context.extra.mine !== i || context.index !== i || context.callId !== `call_${i}`)
            contextProblems.push(`call ${i} saw another call's context`);
          if (spec.behaviour === 'throw') throw new Error(`tool ${i} failed`);
          if (spec.behaviour === 'legacyError') return { error: `tool ${i} failed` };
          return { i };
        } finally {
          inFlight--;
        }
      },
    });
  }
  const run = await runWith({
    tools,
    calls,
    signal: controller.signal,
    pipeline: { approve: ({ args }) => specs[args.i as number]?.behaviour !== 'deny' },
  });
  return { ...run, started, contextProblems, maxInFlight };
}

describe('runBatch properties', () => {
  it('keeps its invariants over random batches: every call answered once, in index order, mode by the rule, events balanced', async () => {
    const modes = { parallel: 0, serial: 0 };
    await fc.assert(
      fc.asyncProperty(batchSpec, async ({ specs, abortAt }) => {
        const { results, events, started, contextProblems, maxInFlight } = await runSpecs(specs);
        const n = specs.length;
        const expected = expectedMode(specs);
        modes[expected.mode]++;

        // Every call answered exactly once, in index order.
        expect(results.map((result) => result.call.callId)).toEqual(specs.map((_spec, i) => `call_${i}`));
        for (const type of ['tool/start', 'tool/end'] as const) {
          const ids = events.flatMap((event) => (event.type === type ? [event.callId] : []));
          expect(ids.length).toBe(n);
          expect(new Set(ids).size).toBe(n);
        }
        expect(lifecycleProblems(events, { batchOnly: true })).toEqual([]);
        expect(events.slice(0, 2).map((event) => event.type)).toEqual(['batch/open', 'batch/start']);
        expect(events.at(-1)?.type).toBe('batch/end');

        // The mode follows the rule, and the reason says so.
        const start = events[1];
        if (start?.type !== 'batch/start') throw new Error('no batch/start');
        expect(start.mode).toBe(expected.mode);
        expect(start.reason.startsWith(`${expected.mode}:`)).toBe(true);
        if (expected.serialTool) expect(start.reason).toBe(`serial: ${expected.serialTool} declares serial`);
        if (expected.mode === 'serial') {
          expect(maxInFlight).toBeLessThanOrEqual(1);
          expect(started).toEqual([...started].sort((a, b) => a - b));
        }

        // Each call gets what its behaviour deserves, or `aborted` once the user aborted.
        const reasons = results.map(reasonOf);
        for (const [i, spec] of specs.entries()) {
          const want = EXPECTED[spec.behaviour];
          if (abortAt === undefined) expect(reasons[i], `call ${i}`).toBe(want);
          else if (expected.mode === 'serial' && i < abortAt) expect(reasons[i], `call ${i}`).toBe(want);
          else if (expected.mode === 'serial' && i > abortAt) {
            expect(reasons[i], `call ${i}`).toBe('aborted');
            expect(started).not.toContain(i);
          } else expect([want, 'aborted'], `call ${i}`).toContain(reasons[i]);
        }
        expect(contextProblems).toEqual([]);
        expect(events.at(-1)).toMatchObject({ executed: reasons.filter((reason) => reason === 'ok').length });
      }),
      { numRuns: 100, seed: 20260706 },
    );
    // The runs must exercise both modes, else the property says little about one of them.
    expect(modes.parallel).toBeGreaterThan(20);
    expect(modes.serial).toBeGreaterThan(20);
  });
});
