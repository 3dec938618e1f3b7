import { describe, expect, it } from 'vitest';
import { emptyFoldedData, foldEvents } from '../../../renderer/state/fold-event.ts';
import { event } from '../helpers/agent-events.ts';

const stopped = [
  event({ type: 'turn/start', at: 1, text: 'lamps on', model: 'demo' }),
  event({
    type: 'batch/start',
    at: 2,
    step: 1,
    batchId: 'b1',
    mode: 'parallel',
    reason: 'parallel: all 2 calls are parallel-safe',
    calls: [
      { index: 0, callId: 'a', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { index: 1, callId: 'b', name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
    ],
  }),
  ...(['a', 'b'] as const).map((callId, index) =>
    event({
      type: 'tool/end',
      at: 3,
      batchId: 'b1',
      callId,
      name: 'lamp__set',
      index,
      ok: false,
      outcome: 'unknown',
      error: { reason: 'aborted', detail: 'stopped' },
      queuedMs: 0,
      runMs: 1500,
      approvalMs: index === 0 ? 200 : undefined,
      startedAt: 2,
      endedAt: 1502,
    }),
  ),
  event({ type: 'batch/end', at: 4, batchId: 'b1', wallMs: 1502, executed: 0 }),
  event({ type: 'device/state', at: 5, deviceId: 'lamp-1', tool: 'lamp__get', callIds: ['a'], result: { on: true } }),
  event({
    type: 'device/state',
    at: 6,
    deviceId: 'lamp-2',
    tool: 'lamp__get',
    callIds: ['b'],
    error: { reason: 'timeout', detail: 'no answer' },
  }),
  event({ type: 'turn/end', at: 7, reason: 'aborted' }),
];

describe('folding the outcome of a stopped turn', () => {
  it('keeps each row’s outcome, its approval wait and the state read after the stop', () => {
    const folded = foldEvents(emptyFoldedData, stopped);
    const rows = folded.batches.b1!.calls;
    expect(rows.map((row) => [row.outcome, row.approvalMs, row.args])).toEqual([
      ['unknown', 200, { device_id: 'lamp-1', on: true }],
      ['unknown', undefined, { device_id: 'lamp-2', on: true }],
    ]);
    expect(rows[0]!.stateAfterStop).toEqual({ deviceId: 'lamp-1', tool: 'lamp__get', result: { on: true } });
    expect(rows[1]!.stateAfterStop).toEqual({
      deviceId: 'lamp-2',
      tool: 'lamp__get',
      error: { reason: 'timeout', detail: 'no answer' },
    });
  });

  it('puts the states in the turn, after its batch, for the chat to show', () => {
    const turn = foldEvents(emptyFoldedData, stopped).turns.t1!;
    expect(turn.status).toBe('aborted');
    expect(turn.items.map((item) => item.kind)).toEqual(['batch', 'device-state', 'device-state']);
    expect(turn.items[1]).toEqual({
      kind: 'device-state',
      deviceId: 'lamp-1',
      tool: 'lamp__get',
      result: { on: true },
    });
  });
});
