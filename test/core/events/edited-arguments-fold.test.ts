import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { batchesOfTurn, emptyCallRecords, foldCallRecords } from '../../../core/events/fold-call-records.ts';

const where = { conversationId: 'c1', turnId: 't1' };
const asked = { device_id: 'relay-1', channel: 2, on: true };
const ran = { device_id: 'relay-1', channel: 3, on: true };
const call = { batchId: 'b1', callId: 'call-0', name: 'relay__set', index: 0 };

describe('the fold of a call the person edited', () => {
  it('shows the arguments that ran beside the model’s, and keeps the call running from its first start', () => {
    const journal: AgentEvent[] = [
      { ...where, at: 1000, type: 'batch/open', batchId: 'b1', step: 1 },
      {
        ...where,
        at: 1001,
        type: 'batch/start',
        batchId: 'b1',
        step: 1,
        mode: 'serial',
        reason: 'serial: a single call',
        calls: [{ ...call, args: asked }],
      },
      { ...where, at: 1002, type: 'tool/start', ...call },
      { ...where, at: 1500, type: 'tool/start', ...call, args: ran, modelArgs: asked },
    ];
    const [batch] = batchesOfTurn(foldCallRecords(emptyCallRecords, journal), 'c1', 't1');
    expect(batch?.calls[0]).toMatchObject({ status: 'running', runningSince: 1002, args: ran, modelArgs: asked });
  });
});
