import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { call, gate, runWith, tool, untilAborted } from './batch-helpers.ts';

/** The `outcome` of each tool/end, by index. */
function outcomes(events: readonly { type: string; index?: number; outcome?: string }[]): Record<number, string> {
  return Object.fromEntries(
    events
      .filter((event) => event.type === 'tool/end')
      .map((event) => [event.index as number, event.outcome as string]),
  );
}

describe('the outcome of every call in a batch', () => {
  it('says what is known: done, failed, not sent, or unknown', async () => {
    const tools = [
      tool('ok'),
      tool('refused', { canUse: () => new ToolError({ reason: 'unauthorized', detail: 'no grant' }) }),
      tool('answered_error', { handler: () => new ToolError({ reason: 'failed', detail: 'relay stuck' }) }),
      tool('slow_device', {
        reportsDelivery: true,
        timeoutMs: 5,
        handler: async (_args, context) => {
          context.markSent();
          await untilAborted(context.signal);
        },
      }),
      tool('queued_device', {
        reportsDelivery: true,
        timeoutMs: 5,
        handler: async (_args, context) => untilAborted(context.signal),
      }),
    ];
    const { events, results } = await runWith({
      tools,
      calls: [
        call(0, 'ok'),
        call(1, 'refused'),
        call(2, 'answered_error'),
        call(3, 'slow_device'),
        call(4, 'queued_device'),
        call(5, 'missing'),
      ],
    });
    expect(outcomes(events)).toEqual({
      0: 'done',
      1: 'not_sent',
      2: 'failed',
      3: 'unknown',
      4: 'not_sent',
      5: 'not_sent',
    });
    expect(results.map((result) => result.callOutcome)).toEqual([
      'done',
      'not_sent',
      'failed',
      'unknown',
      'not_sent',
      'not_sent',
    ]);
  });

  it('marks a call stopped after its request left as unknown, and one stopped before as not sent', async () => {
    const controller = new AbortController();
    const sent = gate();
    const tools = [
      tool('lamp__set', {
        parallelSafe: true,
        reportsDelivery: true,
        handler: async (_args, context) => {
          context.markSent();
          sent.open();
          await untilAborted(context.signal);
        },
      }),
      tool('relay__set', {
        parallelSafe: true,
        reportsDelivery: true,
        handler: async (_args, context) => untilAborted(context.signal),
      }),
    ];
    const running = runWith({ tools, calls: [call(0, 'lamp__set'), call(1, 'relay__set')], signal: controller.signal });
    await sent.promise;
    controller.abort(new Error('the person pressed Stop'));
    const { events } = await running;
    expect(outcomes(events)).toEqual({ 0: 'unknown', 1: 'not_sent' });
  });

  it('measures the wait for the person apart, only for calls that asked', async () => {
    const answer = gate();
    const tools = [tool('relay__set', { needsApproval: true }), tool('lamp__get')];
    const running = runWith({
      tools,
      calls: [call(0, 'relay__set'), call(1, 'lamp__get')],
      pipeline: {
        approve: async ({ tool: asked, onAsked }) => {
          if (!asked.needsApproval) return true;
          onAsked?.();
          await answer.promise;
          return true;
        },
      },
    });
    // The serial batch waits for the answer before the next call: release it.
    answer.open();
    const { events } = await running;
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends[0]).toHaveProperty('approvalMs');
    expect(ends[1]).not.toHaveProperty('approvalMs');
  });

  it('says nobody waited when a call that needs approval is allowed without asking (a standing approval)', async () => {
    const running = runWith({
      tools: [tool('relay__set', { needsApproval: true })],
      calls: [call(0, 'relay__set')],
      // Allowed by a standing approval: the gate answers without putting the question to anyone.
      pipeline: { approve: () => true },
    });
    const { events } = await running;
    expect(events.find((event) => event.type === 'tool/end')).not.toHaveProperty('approvalMs');
  });
});

describe('a call stopped while its gates decide', () => {
  it('never runs its handler afterwards, and is known not sent', async () => {
    const controller = new AbortController();
    const deciding = gate();
    const decide = gate();
    const ran: string[] = [];
    const tools = [
      tool('relay__set', {
        canUse: async () => {
          deciding.open();
          await decide.promise;
          return null;
        },
        handler: () => void ran.push('relay__set'),
      }),
    ];
    const running = runWith({ tools, calls: [call(0, 'relay__set')], signal: controller.signal });
    await deciding.promise;
    controller.abort(new Error('the person pressed Stop'));
    const { results } = await running;
    decide.open();
    // Let the gate's continuation run, as it would have before the fix.
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual([]);
    expect(results[0]?.callOutcome).toBe('not_sent');
  });
});
