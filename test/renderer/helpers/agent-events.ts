import type { HostAgentEvent } from '../../../host/contract/api-contract.ts';

type Without<E> = E extends HostAgentEvent
  ? Omit<E, 'conversationId' | 'turnId'> & Partial<Pick<E, 'conversationId' | 'turnId'>>
  : never;

/** Test shorthand: an event of conversation `c1`, turn `t1` unless it says otherwise. */
export function event(input: Without<HostAgentEvent>): HostAgentEvent {
  return { conversationId: 'c1', turnId: 't1', ...input } as HostAgentEvent;
}

/** The events of the walking skeleton's first turn, as the kernel emits them (hand-written). */
export function skeletonTurn(): HostAgentEvent[] {
  return [
    event({ type: 'turn/start', at: 1000, text: 'Lamps on, and how warm is it?', model: 'scripted' }),
    event({ type: 'step/start', at: 1001, step: 0 }),
    event({
      type: 'request/header',
      at: 1002,
      step: 0,
      tools: ['lamp__set', 'thermometer__read'],
      systemPromptHash: 'h1',
      requestHash: 'r1',
    }),
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
    event({
      type: 'tool/end',
      at: 1150,
      batchId: 'b1',
      callId: 'call-c',
      name: 'thermometer__read',
      index: 2,
      ok: true,
      result: { celsius: 21.5 },
      queuedMs: 2,
      runMs: 48,
      startedAt: 1102,
      endedAt: 1150,
    }),
    event({
      type: 'tool/end',
      at: 1200,
      batchId: 'b1',
      callId: 'call-b',
      name: 'lamp__set',
      index: 1,
      ok: false,
      error: { reason: 'device_offline', detail: 'lamp-2 did not answer' },
      queuedMs: 3,
      runMs: 97,
      startedAt: 1103,
      endedAt: 1200,
    }),
    event({
      type: 'tool/end',
      at: 1300,
      batchId: 'b1',
      callId: 'call-a',
      name: 'lamp__set',
      index: 0,
      ok: true,
      result: { on: true },
      queuedMs: 2,
      runMs: 198,
      startedAt: 1102,
      endedAt: 1300,
    }),
    event({ type: 'batch/end', at: 1301, batchId: 'b1', wallMs: 201, executed: 3 }),
    event({ type: 'step/end', at: 1302, step: 0 }),
    event({ type: 'step/start', at: 1303, step: 1 }),
    event({ type: 'text/delta', at: 1310, step: 1, text: 'Done.' }),
    event({ type: 'message/assistant', at: 1311, step: 1, text: 'Done.', toolCalls: [] }),
    event({ type: 'step/end', at: 1312, step: 1 }),
    event({ type: 'turn/end', at: 1313, reason: 'done' }),
  ];
}

/** The arguments of the relay switch the approval tests ask about. */
export const relayArgs = { device_id: 'relay-1', channel: 2, on: true };

/** How a question ended: an `approval/end`, or none at all (a journal cut short). */
export type RelayAnswer = { approved: boolean; why: 'answered' | 'timeout' | 'aborted' } | 'none';

/**
 * A turn whose one call, `relay__set` (which needs the person), is asked about and then answered
 * as `answer`, in the order the host emits it: tool/start, approval/request, approval/end,
 * tool/end (denied unless allowed), batch/end, turn/end (hand-written).
 */
export function relayApprovalTurn(answer: RelayAnswer): HostAgentEvent[] {
  const allowed = answer !== 'none' && answer.approved;
  const toolEnd = allowed
    ? event({
        type: 'tool/end',
        at: 2400,
        batchId: 'rb1',
        callId: 'relay-call',
        name: 'relay__set',
        index: 0,
        ok: true,
        result: { ok: true },
        queuedMs: 1,
        runMs: 1300,
        startedAt: 1101,
        endedAt: 2400,
      })
    : event({
        type: 'tool/end',
        at: 2400,
        batchId: 'rb1',
        callId: 'relay-call',
        name: 'relay__set',
        index: 0,
        ok: false,
        error: {
          reason: answer !== 'none' && answer.why === 'aborted' ? 'aborted' : 'denied',
          detail: 'The person did not allow relay__set to run.',
        },
        queuedMs: 1,
        runMs: 1299,
        startedAt: 1101,
        endedAt: 2400,
      });
  return [
    event({ type: 'turn/start', at: 1000, text: 'Switch relay 2 on.', model: 'scripted' }),
    event({ type: 'step/start', at: 1001, step: 0 }),
    event({
      type: 'message/assistant',
      at: 1050,
      step: 0,
      text: '',
      toolCalls: [{ id: 'relay-call', name: 'relay__set', args: relayArgs }],
    }),
    event({
      type: 'batch/start',
      at: 1100,
      step: 0,
      batchId: 'rb1',
      mode: 'serial',
      reason: 'serial: one call',
      calls: [{ index: 0, callId: 'relay-call', name: 'relay__set', args: relayArgs }],
    }),
    event({ type: 'tool/start', at: 1101, batchId: 'rb1', callId: 'relay-call', name: 'relay__set', index: 0 }),
    event({
      type: 'approval/request',
      at: 1102,
      batchId: 'rb1',
      callId: 'relay-call',
      approvalId: RELAY_QUESTION,
      index: 0,
      name: 'relay__set',
      args: relayArgs,
    }),
    ...(answer === 'none' ? [] : [relayQuestionEnded({ approved: answer.approved, why: answer.why })]),
    toolEnd,
    event({ type: 'batch/end', at: 2401, batchId: 'rb1', wallMs: 1301, executed: allowed ? 1 : 0 }),
    event({ type: 'step/end', at: 2402, step: 0 }),
    event({ type: 'turn/end', at: 2500, reason: answer !== 'none' && answer.why === 'aborted' ? 'aborted' : 'done' }),
  ];
}

type ApprovalEnd = Extract<HostAgentEvent, { type: 'approval/end' }>;

/** The end of the question `relayApprovalTurn` asks (batch rb1, call relay-call, at 2300), with how it ended. */
export function relayQuestionEnded(
  answer: Omit<ApprovalEnd, 'type' | 'at' | 'batchId' | 'callId' | 'approvalId' | 'conversationId' | 'turnId'>,
): HostAgentEvent {
  return event({
    type: 'approval/end',
    at: 2300,
    batchId: 'rb1',
    callId: 'relay-call',
    approvalId: RELAY_QUESTION,
    ...answer,
  });
}

/** The approvalId of the question `relayApprovalTurn` asks. */
export const RELAY_QUESTION = 'relay-question';

/** The same events as a journal written before questions had an approvalId holds them. */
export function withoutApprovalIds(events: readonly HostAgentEvent[]): HostAgentEvent[] {
  return events.map((entry) => {
    if (entry.type !== 'approval/request' && entry.type !== 'approval/end') return entry;
    const { approvalId: _dropped, ...rest } = entry;
    return rest;
  });
}

/** The events of `relayApprovalTurn` up to and including the question: what a window sees while the host waits. */
export function relayQuestionAsked(): HostAgentEvent[] {
  return relayApprovalTurn('none').slice(0, 6);
}
