import { describe, expect, it } from 'vitest';
import { emptyFoldedData, foldEvents } from '../../../renderer/state/fold-event.ts';
import { event } from '../helpers/agent-events.ts';

// Issue 19: "The batch panel shows early calls against the stream on its timeline" — so the turn
// shows its batch from `batch/open`, while the reply still streams, not only from `batch/start`.
const streaming = [
  event({ type: 'turn/start', at: 1000, text: 'Lamps on', model: 'scripted' }),
  event({ type: 'step/start', at: 1001, step: 0 }),
  event({ type: 'text/delta', at: 1010, step: 0, text: 'On it.' }),
  event({ type: 'batch/open', at: 1020, step: 0, batchId: 'b1' }),
  event({
    type: 'tool/start',
    at: 1030,
    batchId: 'b1',
    callId: 'call-a',
    index: 0,
    name: 'lamp__set',
    args: { device_id: 'lamp-1', on: true },
    early: true,
  }),
];

describe('a batch whose calls start while the reply streams', () => {
  it('is in its turn from batch/open, with the early call running', () => {
    const view = foldEvents(emptyFoldedData, streaming);
    expect(view.turns.t1?.items).toEqual([
      { kind: 'assistant', step: 0, text: 'On it.', final: false },
      { kind: 'batch', batchId: 'b1' },
    ]);
    expect(view.batches.b1?.calls.map((call) => [call.callId, call.status, call.early])).toEqual([
      ['call-a', 'running', true],
    ]);
  });

  it('stays one item when batch/start follows', () => {
    const view = foldEvents(emptyFoldedData, [
      ...streaming,
      event({
        type: 'batch/start',
        at: 1500,
        step: 0,
        batchId: 'b1',
        mode: 'serial',
        reason: 'serial',
        calls: [{ index: 0, callId: 'call-a', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } }],
      }),
    ]);
    expect(view.turns.t1?.items.filter((item) => item.kind === 'batch')).toEqual([{ kind: 'batch', batchId: 'b1' }]);
  });
});
