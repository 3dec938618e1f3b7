import { describe, expect, it } from 'vitest';
import type { ToolCallContext, ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { call, gate, nextTurn, reasonOf, runWith, tool, untilAborted, type Gate } from './batch-helpers.ts';

function typesOf(events: readonly { type: string }[]): string[] {
  return events.map((event) => event.type);
}

describe('runBatch', () => {
  it('answers every call exactly once, in index order, also when denied, failed, timed out, not found or unparseable', async () => {
    const tools: ToolDefinition[] = [
      tool('ok_tool', { parallelSafe: true }),
      tool('denied_tool', { parallelSafe: true }),
      tool('failing_tool', {
        parallelSafe: true,
        handler: () => {
          throw new Error('relay stuck');
        },
      }),
      tool('legacy_tool', { parallelSafe: true, handler: () => ({ error: 'disk full' }) }),
      tool('slow_tool', {
        parallelSafe: true,
        timeoutMs: 5,
        handler: (_args, context) => untilAborted(context.signal),
      }),
    ];
    const calls = [
      call(0, 'ok_tool'),
      call(1, 'denied_tool'),
      call(2, 'failing_tool'),
      call(3, 'legacy_tool'),
      call(4, 'slow_tool'),
      call(5, 'no_such_tool'),
      { ...call(6, 'ok_tool'), argumentsProblem: 'the arguments are not valid JSON' },
    ];
    const { results, events } = await runWith({
      tools,
      calls,
      pipeline: { approve: ({ tool: asked }) => asked.name !== 'denied_tool' },
    });
    expect(results.map((result) => result.call.callId)).toEqual([
      'call_0',
      'call_1',
      'call_2',
      'call_3',
      'call_4',
      'call_5',
      'call_6',
    ]);
    expect(results.map(reasonOf)).toEqual(['ok', 'denied', 'failed', 'failed', 'timeout', 'not_found', 'invalid_json']);
    for (const id of calls.map((item) => item.callId)) {
      expect(events.filter((event) => event.type === 'tool/start' && event.callId === id)).toHaveLength(1);
      expect(events.filter((event) => event.type === 'tool/end' && event.callId === id)).toHaveLength(1);
    }
    expect(typesOf(events).slice(0, 2)).toEqual(['batch/open', 'batch/start']);
    expect(typesOf(events).at(-1)).toBe('batch/end');
    expect(events.at(-1)).toMatchObject({ type: 'batch/end', batchId: 'batch-1', executed: 1 });
  });

  it('keeps going after a denied call: the calls after it still run', async () => {
    const ran: string[] = [];
    const tools = ['a', 'b', 'c'].map((name) => tool(name, { handler: () => void ran.push(name) }));
    const { results } = await runWith({
      tools,
      calls: [call(0, 'a'), call(1, 'b'), call(2, 'c')],
      pipeline: { approve: ({ tool: asked }) => asked.name !== 'a' },
    });
    expect(results.map(reasonOf)).toEqual(['denied', 'ok', 'ok']);
    expect(ran).toEqual(['b', 'c']);
  });

  it('returns results in index order when the handlers finish in reverse order', async () => {
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const tools = [0, 1, 2, 3].map((i) =>
      tool(`t${i}`, {
        parallelSafe: true,
        handler: async () => {
          started.push(i);
          await gates[i]?.promise;
          return { i };
        },
      }),
    );
    const finished: number[] = [];
    const events: { type: string; index?: number }[] = [];
    const running = runWith({
      tools,
      calls: [0, 1, 2, 3].map((i) => call(i, `t${i}`)),
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'tool/end') finished.push(event.index);
      },
    });
    await expect.poll(() => started.length).toBe(4);
    for (const i of [3, 2, 1, 0]) {
      gates[i]?.open();
      await expect.poll(() => finished.length).toBe(4 - i);
    }
    const { results } = await running;
    expect(finished).toEqual([3, 2, 1, 0]);
    expect(results.map((result) => result.outcome)).toEqual([0, 1, 2, 3].map((i) => ({ ok: true, value: { i } })));
  });

  it('records its mode and reason in batch/start, and runs a serial batch one call at a time in index order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const order: string[] = [];
    const handler = async (_args: Record<string, unknown>, context: ToolCallContext) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      order.push(context.toolName);
      await nextTurn();
      inFlight--;
    };
    const tools = [
      tool('a', { parallelSafe: true, handler }),
      tool('lamp__set', { parallelSafe: true, serial: true, handler }),
      tool('b', { parallelSafe: true, handler }),
    ];
    const { events } = await runWith({ tools, calls: [call(0, 'a'), call(1, 'lamp__set'), call(2, 'b')] });
    expect(events[1]).toMatchObject({
      type: 'batch/start',
      mode: 'serial',
      reason: 'serial: lamp__set declares serial',
      calls: [
        { index: 0, name: 'a' },
        { index: 1, name: 'lamp__set' },
        { index: 2, name: 'b' },
      ],
    });
    expect(maxInFlight).toBe(1);
    expect(order).toEqual(['a', 'lamp__set', 'b']);
  });

  it('runs a parallel batch concurrently: every handler starts before any finishes', async () => {
    const release = gate();
    const log: string[] = [];
    const tools = ['a', 'b', 'c'].map((name) =>
      tool(name, {
        parallelSafe: true,
        handler: async () => {
          log.push(`start ${name}`);
          await release.promise;
          log.push(`end ${name}`);
        },
      }),
    );
    const running = runWith({ tools, calls: [call(0, 'a'), call(1, 'b'), call(2, 'c')] });
    await expect.poll(() => log.length).toBe(3);
    expect(log).toEqual(['start a', 'start b', 'start c']);
    release.open();
    const { events } = await running;
    expect(events[1]).toMatchObject({ mode: 'parallel', reason: 'parallel: all 3 calls are parallel-safe' });
  });

  it('forces a parallel-safe batch serial when asked (the bench baseline)', async () => {
    const { events } = await runWith({
      tools: [tool('a', { parallelSafe: true }), tool('b', { parallelSafe: true })],
      calls: [call(0, 'a'), call(1, 'b')],
      extra: { forceSerial: true },
    });
    expect(events[1]).toMatchObject({ mode: 'serial', reason: 'serial: forced by the caller' });
  });

  it('gives each concurrent call its own context: what one call writes to extra, the others never see', async () => {
    const everyoneHasWritten = gate();
    let written = 0;
    const seen: { index: number; callId: string; toolName: string; owner: unknown; keys: string[] }[] = [];
    const contexts = new Set<ToolCallContext>();
    const handler = async (_args: Record<string, unknown>, context: ToolCallContext) => {
      contexts.add(context);
      context.extra.owner = context.callId;
      context.extra[`only_${context.index}`] = true;
      if (++written === 4) everyoneHasWritten.open();
      // All four are running now and have written; each reads back only its own writes.
      await everyoneHasWritten.promise;
      seen[context.index] = {
        index: context.index,
        callId: context.callId,
        toolName: context.toolName,
        owner: context.extra.owner,
        keys: Object.keys(context.extra),
      };
    };
    const tools = ['a', 'b', 'c', 'd'].map((name) => tool(name, { parallelSafe: true, handler }));
    await runWith({ tools, calls: ['a', 'b', 'c', 'd'].map((name, i) => call(i, name)) });
    expect(contexts.size).toBe(4);
    expect(seen).toEqual(
      ['a', 'b', 'c', 'd'].map((name, i) => ({
        index: i,
        callId: `call_${i}`,
        toolName: name,
        owner: `call_${i}`,
        keys: ['owner', `only_${i}`],
      })),
    );
  });

  it('answers a call that outlives its timeout with timeout, and aborts its signal', async () => {
    let sawAbort: unknown;
    const tools = [
      tool('slow', {
        timeoutMs: 5,
        handler: async (_args, context) => {
          await untilAborted(context.signal);
          sawAbort = context.signal.reason;
        },
      }),
      tool('slow_default', { handler: (_args, context) => untilAborted(context.signal) }),
    ];
    const { results } = await runWith({
      tools,
      calls: [call(0, 'slow'), call(1, 'slow_default')],
      pipeline: { defaultTimeoutMs: 5 },
    });
    expect(results.map(reasonOf)).toEqual(['timeout', 'timeout']);
    expect(results[0]?.outcome).toMatchObject({
      ok: false,
      error: { reason: 'timeout', detail: 'slow did not finish within 5 ms' },
    });
    await expect.poll(() => ToolError.isInstance(sawAbort)).toBe(true);
  });

  it("carries the user's abort to every running call's signal and answers each aborted", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const stopped: number[] = [];
    const tools = [0, 1, 2].map((i) =>
      tool(`t${i}`, {
        parallelSafe: true,
        handler: async (_args, context) => {
          started.push(i);
          await untilAborted(context.signal);
          stopped.push(i);
        },
      }),
    );
    const running = runWith({ tools, calls: [0, 1, 2].map((i) => call(i, `t${i}`)), signal: controller.signal });
    await expect.poll(() => started.length).toBe(3);
    controller.abort(new Error('stop'));
    const { results, events } = await running;
    expect(results.map(reasonOf)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(stopped.sort()).toEqual([0, 1, 2]);
    expect(events.filter((event) => event.type === 'tool/end')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'batch/end', executed: 0 });
  });

  it('answers the calls after an abort in a serial batch aborted without running them', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const tools = [
      tool('first', {
        handler: async (_args, context) => {
          ran.push('first');
          controller.abort(new Error('stop'));
          await untilAborted(context.signal);
        },
      }),
      tool('second', { handler: () => void ran.push('second') }),
    ];
    const { results } = await runWith({
      tools,
      calls: [call(0, 'first'), call(1, 'second'), call(2, 'no_such_tool')],
      signal: controller.signal,
    });
    expect(results.map(reasonOf)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(ran).toEqual(['first']);
  });

  it("adds at most one abort listener to the caller's signal however many calls run at once", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    let live = 0;
    let maxLive = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
      if (type === 'abort') maxLive = Math.max(maxLive, ++live);
      add(type, listener, options);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: EventListener, options?: EventListenerOptions) => {
      if (type === 'abort') live--;
      remove(type, listener, options);
    }) as typeof signal.removeEventListener;
    const release = gate();
    let started = 0;
    const tools = Array.from({ length: 16 }, (_, i) =>
      tool(`t${i}`, {
        parallelSafe: true,
        handler: async () => {
          started++;
          await release.promise;
        },
      }),
    );
    const running = runWith({ tools, calls: tools.map((item, i) => call(i, item.name)), signal });
    await expect.poll(() => started).toBe(16);
    expect(maxLive).toBeLessThanOrEqual(1);
    release.open();
    const { results } = await running;
    expect(results.map(reasonOf)).toEqual(Array.from({ length: 16 }, () => 'ok'));
    expect(live).toBe(0);
  });

  it('respects the concurrency cap: never more calls in flight than the cap', async () => {
    const gates: Gate[] = [];
    const started: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const tools = [0, 1, 2, 3, 4, 5].map((i) => {
      gates[i] = gate();
      return tool(`t${i}`, {
        parallelSafe: true,
        handler: async () => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          started.push(i);
          await gates[i]?.promise;
          inFlight--;
        },
      });
    });
    const running = runWith({
      tools,
      calls: [0, 1, 2, 3, 4, 5].map((i) => call(i, `t${i}`)),
      extra: { concurrencyCap: 2 },
    });
    // Release the calls one by one in the order they started; each release lets exactly one more in.
    for (let released = 0; released < 6; released++) {
      await expect.poll(() => started.length).toBe(Math.min(released + 2, 6));
      gates[started[released] as number]?.open();
    }
    const { results, events } = await running;
    expect(maxInFlight).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map(reasonOf)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(events[1]).toMatchObject({ mode: 'parallel' });
  });

  it('records queuedMs and runMs per call from its clock', async () => {
    let clock = 1000;
    const tools = [tool('a', { handler: () => void (clock += 100) }), tool('b', { handler: () => void (clock += 50) })];
    const { results, events } = await runWith({
      tools,
      calls: [call(0, 'a'), call(1, 'b')],
      extra: { now: () => clock },
    });
    expect(results.map((result) => [result.queuedMs, result.runMs])).toEqual([
      [0, 100],
      [100, 50],
    ]);
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(
      ends.map((event) =>
        event.type === 'tool/end' ? [event.queuedMs, event.runMs, event.endedAt - event.startedAt] : [],
      ),
    ).toEqual([
      [0, 100, 100],
      [100, 50, 50],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'batch/end', wallMs: 150, executed: 2 });
  });

  it('binds media to the call that attached it, also when two calls attach concurrently', async () => {
    const bothAttached = gate();
    let attached = 0;
    const camera = (tag: string) =>
      tool(`camera_${tag}`, {
        parallelSafe: true,
        handler: async (_args, context) => {
          context.attachMedia({ mimeType: 'image/png', data: `${tag}1` });
          if (++attached === 2) bothAttached.open();
          await bothAttached.promise;
          context.attachMedia({ mimeType: 'image/png', data: `${tag}2` });
          return { shot: tag };
        },
      });
    const { results } = await runWith({
      tools: [camera('A'), camera('B')],
      calls: [call(0, 'camera_A'), call(1, 'camera_B')],
    });
    expect(results.map((result) => result.media.map((item) => item.data))).toEqual([
      ['A1', 'A2'],
      ['B1', 'B2'],
    ]);
  });
});
