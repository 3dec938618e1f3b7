import type { HostAgentEvent } from '../../../host/contract/api-contract.ts';

type Without<E> = E extends HostAgentEvent ? Omit<E, 'conversationId' | 'turnId'> & Partial<Pick<E, 'conversationId' | 'turnId'>> : never;

/** Test shorthand: an event of conversation `c1`, turn `t1` unless it says otherwise. */
export function event(input: Without<HostAgentEvent>): HostAgentEvent {
  return { conversationId: 'c1', turnId: 't1', ...input } as HostAgentEvent;
}

/** The events of the walking skeleton's first turn, as the kernel emits them (hand-written). */
export function skeletonTurn(): HostAgentEvent[] {
  return [
    event({ type: 'turn/start', at: 1000, text: 'Lamps on, and how warm is it?', model: 'scripted' }),
    event({ type: 'step/start', at: 1001, step: 0 }),
    event({ type: 'request/header', at: 1002, step: 0, tools: ['lamp__set', 'thermometer__read'], systemPromptHash: 'h1', requestHash: 'r1' }),
    event({ type: 'text/delta', at: 1010, step: 0, text: 'On it' }),
    event({ type: 'text/delta', at: 1011, step: 0, text: '.' }),
    event({
      type: 'message/assistant',
      at: 1020,
      step: 0,
      text: 'On it.',
      toolCalls: [
        { id: 'call-a', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
        { id: 'call-b', name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
        { id: 'call-c', name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      ],
    }),
    event({
      type: 'batch/start',
      at: 1100,
      step: 0,
      batchId: 'b1',
      mode: 'parallel',
      reason: 'parallel',
      calls: [
        { index: 0, callId: 'call-a', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
        { index: 1, callId: 'call-b', name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
        { index: 2, callId: 'call-c', name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      ],
    }),
    event({ type: 'tool/start', at: 1102, batchId: 'b1', callId: 'call-c', name: 'thermometer__read', index: 2 }),
    event({ type: 'tool/start', at: 1102, batchId: 'b1', callId: 'call-a', name: 'lamp__set', index: 0 }),
    event({ type: 'tool/start', at: 1103, batchId: 'b1', callId: 'call-b', name: 'lamp__set', index: 1 }),
    event({ type: 'tool/end', at: 1150, batchId: 'b1', callId: 'call-c', name: 'thermometer__read', index: 2, ok: true, result: { celsius: 21.5 }, queuedMs: 2, runMs: 48, startedAt: 1102, endedAt: 1150 }),
    event({
      type: 'tool/end', at: 1200, batchId: 'b1', callId: 'call-b', name: 'lamp__set', index: 1, ok: false,
      error: { reason: 'device_offline', detail: 'lamp-2 did not answer' }, queuedMs: 3, runMs: 97, startedAt: 1103, endedAt: 1200,
    }),
    event({ type: 'tool/end', at: 1300, batchId: 'b1', callId: 'call-a', name: 'lamp__set', index: 0, ok: true, result: { on: true }, queuedMs: 2, runMs: 198, startedAt: 1102, endedAt: 1300 }),
    event({ type: 'batch/end', at: 1301, batchId: 'b1', wallMs: 201, executed: 3 }),
    event({ type: 'step/end', at: 1302, step: 0 }),
    event({ type: 'step/start', at: 1303, step: 1 }),
    event({ type: 'text/delta', at: 1310, step: 1, text: 'Done.' }),
    event({ type: 'message/assistant', at: 1311, step: 1, text: 'Done.', toolCalls: [] }),
    event({ type: 'step/end', at: 1312, step: 1 }),
    event({ type: 'turn/end', at: 1313, reason: 'done' }),
  ];
}
