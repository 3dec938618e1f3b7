import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { emptyCallRecords, foldCallRecords } from '../../../core/events/fold-call-records.ts';

const where = { conversationId: 'c1', turnId: 't1' };
const calls = [0, 1, 2].map((index) => ({
  index,
  callId: `call-${index}`,
  name: 'lamp__get',
  args: { device_id: `lamp-${index + 1}` },
}));

/** Two batches of one turn, written by hand: b1's three calls running, b2 ended. */
const journal: AgentEvent[] = [
  { ...where, at: 1000, type: 'batch/open', batchId: 'b1', step: 1 },
  { ...where, at: 1001, type: 'batch/start', batchId: 'b1', step: 1, mode: 'parallel', reason: 'parallel', calls },
  ...calls.map((call): AgentEvent => ({ ...where, at: 1002, type: 'tool/start', batchId: 'b1', ...call })),
  { ...where, at: 1003, type: 'batch/open', batchId: 'b2', step: 2 },
  { ...where, at: 1004, type: 'batch/start', batchId: 'b2', step: 2, mode: 'serial', reason: 'serial', calls: [] },
  { ...where, at: 1005, type: 'batch/end', batchId: 'b2', wallMs: 1, executed: 0 },
];

function ended(index: number, at: number, batchId = 'b1'): AgentEvent {
  return {
    ...where,
    at,
    type: 'tool/end',
    batchId,
    callId: `call-${index}`,
    name: 'lamp__get',
    index,
    ok: true,
    result: { on: true },
    outcome: 'done',
    queuedMs: 1,
    runMs: at - 1002,
    startedAt: 1002,
    endedAt: at,
  };
}

describe('foldCallRecords keeps what did not change the same object', () => {
  it('changes only the call that ended, its batch and the containers; other calls and batches keep their identity', () => {
    const before = foldCallRecords(emptyCallRecords, journal);
    const after = foldCallRecords(before, [ended(1, 1250)]);
    expect(after).not.toBe(before);
    expect(after.batches.b1).not.toBe(before.batches.b1);
    expect(after.batches.b1!.calls[1]).not.toBe(before.batches.b1!.calls[1]);
    expect(after.batches.b1!.calls[1]).toMatchObject({ status: 'done', runMs: 248 });
    // What a reader draws from these is the same object, so it need not be drawn again.
    expect(after.batches.b1!.calls[0]).toBe(before.batches.b1!.calls[0]);
    expect(after.batches.b1!.calls[2]).toBe(before.batches.b1!.calls[2]);
    expect(after.batches.b2).toBe(before.batches.b2);
    expect(after.batchOrder.c1).toBe(before.batchOrder.c1);
  });

  it('keeps the identity of every call a group of events did not touch, however many it folds at once', () => {
    const before = foldCallRecords(emptyCallRecords, journal);
    const after = foldCallRecords(before, [ended(0, 1200), ended(2, 1300)]);
    expect(after.batches.b1!.calls[1]).toBe(before.batches.b1!.calls[1]);
    expect(after.batches.b2).toBe(before.batches.b2);
    expect(after.batches.b1!.calls.map((call) => call.status)).toEqual(['done', 'running', 'done']);
  });

  it('returns its input when nothing changed: an event of no batch, or a start of a call already done', () => {
    const records = foldCallRecords(emptyCallRecords, [...journal, ended(0, 1200)]);
    const late = { ...where, at: 1400, type: 'tool/start', batchId: 'b1', ...calls[0]! } as AgentEvent;
    expect(foldCallRecords(records, [late])).toBe(records);
    expect(foldCallRecords(records, [{ ...where, at: 1400, type: 'step/start', step: 3 }])).toBe(records);
    expect(foldCallRecords(records, [ended(1, 1400, 'nope')])).toBe(records);
  });
});
