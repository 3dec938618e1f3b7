import { describe, expect, it } from 'vitest';
import { runSequence, type RunSequenceOptions } from '../../../../core/plugins/sequences/run-sequence.ts';
import { InMemorySequenceStore } from '../../../../core/plugins/sequences/in-memory-sequence-store.ts';
import type { Sequence } from '../../../../core/plugins/sequences/sequence-schema.ts';
import type { ToolDefinition } from '../../../../core/tools/tool-definition.ts';
import { createToolApi } from '../../../../core/batch/create-tool-api.ts';
import { createTestTools, deferred } from './sequence-test-kit.ts';

function setUp(extraTools: ToolDefinition[] = [], sequences: Sequence[] = []) {
  const kit = createTestTools();
  const toolApi = createToolApi({ tools: () => [...kit.tools, ...extraTools] });
  const store = new InMemorySequenceStore(sequences);
  const run = (sequence: Sequence, options: Partial<RunSequenceOptions> = {}) =>
    runSequence({
      sequence,
      toolApi,
      loadSequence: (name) => store.get(name),
      conversationId: 'conv-1',
      signal: new AbortController().signal,
      ...options,
    });
  return { ...kit, run };
}

describe('runSequence', () => {
  it('runs the calls of a group at the same time (each waits until both have started)', async () => {
    const events: string[] = [];
    const started = { left: deferred(), right: deferred() };
    const bothStarted = Promise.all([started.left.promise, started.right.promise]);
    // A sequential engine would wait for 'left' forever; the run's timeout turns that into a failed report.
    const gated = (name: 'left' | 'right'): ToolDefinition => ({
      name,
      description: 'Waits for its sibling.',
      parameters: { type: 'object', properties: {} },
      handler: async () => {
        events.push(`start ${name}`);
        started[name].resolve();
        await bothStarted;
        events.push(`end ${name}`);
        return name;
      },
    });
    const { run } = setUp([gated('left'), gated('right')]);
    const report = await run(
      {
        name: 'pair',
        description: 'Two at once.',
        groups: [{ id: 'both', calls: [{ tool: 'left' }, { tool: 'right' }] }],
      },
      { budget: { wallTimeMs: 5_000 } },
    );
    expect(report.groups[0]?.calls.map((call) => call.status)).toEqual(['ok', 'ok']);
    expect(events.slice(0, 2).sort()).toEqual(['start left', 'start right']);
  });

  it('feeds slots into later args and conditions, skips a false condition and goes on after a failure', async () => {
    const { run, calls } = setUp();
    const report = await run(
      {
        name: 'heat_check',
        description: 'Reads, then acts on the reading.',
        groups: [
          {
            id: 'read',
            calls: [
              { tool: 'thermo__read', slot: 'reading' },
              { tool: 'broken', slot: 'fault' },
            ],
          },
          {
            id: 'act',
            calls: [
              {
                tool: 'echo',
                slot: 'warm',
                when: 'reading.ok && reading.result.celsius > 20',
                args: { level: { $slot: 'reading.result.celsius' }, who: ['x', { $slot: 'input.who' }] },
              },
              { tool: 'echo', slot: 'cold', when: 'reading.result.celsius < 10', args: { never: true } },
              { tool: 'echo', when: '!fault.ok', args: { why: { $slot: 'fault.error.reason' } } },
            ],
          },
          {
            id: 'after',
            calls: [
              {
                tool: 'echo',
                when: 'cold.skipped == true && warm.ok',
                args: { level: { $slot: 'warm.result.level' } },
              },
            ],
          },
        ],
      },
      { input: { who: 'ann' } },
    );
    expect(report.groups.map((group) => group.calls.map((call) => call.status))).toEqual([
      ['ok', 'failed'],
      ['ok', 'skipped', 'ok'],
      ['ok'],
    ]);
    expect(report.groups[0]?.calls[1]?.error).toMatchObject({ reason: 'device_offline' });
    expect(calls.filter((call) => call.name === 'echo').map((call) => call.args)).toEqual([
      { level: 23, who: ['x', 'ann'] },
      { why: 'device_offline' },
      { level: 23 },
    ]);
    expect(report.ok).toBe(false);
  });

  it('refuses tools that message the outside world, by name or by declared channel, and the group goes on', async () => {
    const { run, names } = setUp();
    const report = await run({
      name: 'leaky',
      description: 'Stored without save checks.',
      groups: [
        {
          id: 'g',
          calls: [
            { tool: 'output_send__chat', args: { text: 'hi' } },
            { tool: 'display__show', args: { text: 'hi' } },
            { tool: 'seq_run', args: { name: 'x' } },
            { tool: 'thermo__read' },
          ],
        },
      ],
    });
    const entries = report.groups[0]?.calls ?? [];
    expect(entries.map((call) => [call.status, call.error?.reason])).toEqual([
      ['refused', 'unauthorized'],
      ['refused', 'unauthorized'],
      ['refused', 'unauthorized'],
      ['ok', undefined],
    ]);
    expect(entries[1]?.error?.detail).toContain("output channel 'hall-display'");
    expect(names()).toEqual(['thermo__read']);
  });

  it('passes every call through the CanUse gate as caller "sequences"; a refused call never reaches its handler', async () => {
    const { run, calls, gateCallers } = setUp();
    const report = await run({
      name: 'lamps',
      description: 'Two lamps.',
      groups: [
        {
          id: 'g',
          calls: [
            { tool: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
            { tool: 'lamp__set', args: { device_id: 'lamp-9', on: true } },
          ],
        },
      ],
    });
    expect(report.groups[0]?.calls.map((call) => [call.status, call.error?.reason])).toEqual([
      ['ok', undefined],
      ['refused', 'unauthorized'],
    ]);
    expect(calls).toEqual([{ name: 'lamp__set', args: { device_id: 'lamp-1', on: true } }]);
    expect(gateCallers).toEqual(['sequences', 'sequences']);
  });

  it('stops on abort: the running call ends aborted, later groups never run and are counted as not started', async () => {
    const started = deferred();
    const blocker: ToolDefinition = {
      name: 'blocker',
      description: 'Runs until stopped.',
      parameters: { type: 'object', properties: {} },
      handler: (_args, context) => {
        started.resolve();
        return new Promise((resolve) =>
          context.signal.addEventListener('abort', () => resolve('stopped'), { once: true }),
        );
      },
    };
    const { run, names } = setUp([blocker]);
    const controller = new AbortController();
    const running = run(
      {
        name: 'long',
        description: 'Blocks.',
        groups: [
          { id: 'wait', calls: [{ tool: 'blocker' }] },
          { id: 'later', calls: [{ tool: 'thermo__read' }] },
        ],
      },
      { signal: controller.signal },
    );
    await started.promise;
    controller.abort(new Error('the person pressed stop'));
    const report = await running;
    expect(report).toMatchObject({
      ok: false,
      stopped: 'aborted',
      notStarted: { groups: 1, calls: 1, error: { reason: 'aborted' } },
    });
    expect(report.groups.map((group) => group.calls.map((call) => [call.status, call.error?.reason]))).toEqual([
      [['failed', 'aborted']],
    ]);
    expect(names()).toEqual([]);
  });

  it('stops at its overall timeout and says so', async () => {
    const blocker: ToolDefinition = {
      name: 'blocker',
      description: 'Never ends by itself.',
      parameters: { type: 'object', properties: {} },
      handler: () => new Promise(() => {}),
    };
    const { run } = setUp([blocker]);
    const report = await run(
      { name: 'slow', description: 'Too slow.', groups: [{ id: 'wait', calls: [{ tool: 'blocker' }] }] },
      { budget: { wallTimeMs: 20 } },
    );
    expect(report).toMatchObject({
      ok: false,
      stopped: 'timeout',
      groups: [{ calls: [{ status: 'failed', error: { reason: 'timeout' } }] }],
    });
  });

  it('runs a nested sequence with its own slots and its args as input', async () => {
    const inner: Sequence = {
      name: 'greet',
      description: 'Echoes a name.',
      groups: [{ id: 'g', calls: [{ tool: 'echo', slot: 'greeting', args: { text: { $slot: 'input.who' } } }] }],
    };
    const { run } = setUp([], [inner]);
    const report = await run(
      {
        name: 'outer',
        description: 'Calls greet.',
        groups: [
          { id: 'call', calls: [{ sequence: 'greet', slot: 'inner', args: { who: 'bo' } }] },
          { id: 'use', calls: [{ tool: 'echo', args: { got: { $slot: 'inner.result.slots.greeting.result.text' } } }] },
        ],
      },
      {},
    );
    expect(report.ok).toBe(true);
    expect(report.groups[0]?.calls[0]).toMatchObject({
      sequence: 'greet',
      status: 'ok',
      report: { sequence: 'greet', ok: true },
    });
    expect(report.groups[1]?.calls[0]?.result).toEqual({ got: 'bo' });
  });

  it('fails only the call whose nested sequence cannot be loaded when the store throws', async () => {
    const { run } = setUp();
    const report = await run(
      {
        name: 'fragile',
        description: 'Store trouble.',
        groups: [{ id: 'g', calls: [{ sequence: 'inner' }, { tool: 'thermo__read' }] }],
      },
      { loadSequence: () => Promise.reject(new Error('database is locked')) },
    );
    expect(report.groups[0]?.calls.map((call) => [call.status, call.error?.detail])).toEqual([
      ['failed', 'database is locked'],
      ['ok', undefined],
    ]);
  });

  it('guards nesting at run time too: a missing target, a cycle and the depth limit fail the call', async () => {
    const ping: Sequence = {
      name: 'ping',
      description: 'Calls pong.',
      groups: [{ id: 'g', calls: [{ sequence: 'pong' }] }],
    };
    const pong: Sequence = {
      name: 'pong',
      description: 'Calls ping.',
      groups: [{ id: 'g', calls: [{ sequence: 'ping' }] }],
    };
    const chain = (name: string, next?: string): Sequence => ({
      name,
      description: 'A link.',
      groups: [{ id: 'g', calls: [next ? { sequence: next } : { tool: 'thermo__read' }] }],
    });
    const { run, names } = setUp([], [ping, pong, chain('s1', 's2'), chain('s2')]);
    const cyclic = await run(ping);
    expect(cyclic.groups[0]?.calls[0]?.report?.groups[0]?.calls[0]?.error?.detail).toBe(
      'sequences call each other in a cycle: ping → pong → ping',
    );
    const missing = await run({
      name: 'lost',
      description: 'Calls nothing real.',
      groups: [{ id: 'g', calls: [{ sequence: 'ghost' }] }],
    });
    expect(missing.groups[0]?.calls[0]).toMatchObject({ status: 'failed', error: { reason: 'not_found' } });
    const deep = await run(chain('s0', 's1'), { maxCallDepth: 1 });
    expect(deep.groups[0]?.calls[0]?.report?.groups[0]?.calls[0]?.error?.detail).toBe(
      'the call chain s0 → s1 → s2 is deeper than 1 sequence calls',
    );
    expect(names()).toEqual([]);
    const allowed = await run(chain('s0', 's1'), { maxCallDepth: 2 });
    expect(allowed.ok).toBe(true);
    expect(names()).toEqual(['thermo__read']);
  });
});
