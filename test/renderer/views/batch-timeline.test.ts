import { describe, expect, it } from 'vitest';
import { emptyFoldedData, foldEvents } from '../../../renderer/state/fold-event.ts';
import { computeBatchTimeline } from '../../../renderer/views/batch-timeline.ts';
import { skeletonTurn } from '../helpers/agent-events.ts';

function rounded(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 1000) / 1000;
}

describe('computeBatchTimeline', () => {
  it('places finished calls on one axis from the batch start to its end, from tool/end timings', () => {
    const batch = foldEvents(emptyFoldedData, skeletonTurn()).batches.b1!;
    const timeline = computeBatchTimeline(batch, 99_999);
    // Axis 1100 … 1301 (batch start + wall 201 ms): hand-computed percentages of 201 ms.
    expect(timeline.spanMs).toBe(201);
    expect(
      timeline.bars.map((bar) => [
        bar.callId,
        rounded(bar.queued?.startPercent),
        rounded(bar.queued?.widthPercent),
        rounded(bar.run?.startPercent),
        rounded(bar.run?.widthPercent),
        bar.live,
      ]),
    ).toEqual([
      ['call-a', 0, 0.995, 0.995, 98.507, false],
      ['call-b', 0, 1.493, 1.493, 48.259, false],
      ['call-c', 0, 0.995, 0.995, 23.881, false],
    ]);
  });

  it('grows a running call to now and shows a not-yet-started call as waiting', () => {
    // Up to the first tool/start: call-c runs since 1102, a and b wait.
    const batch = foldEvents(emptyFoldedData, skeletonTurn().slice(0, 8)).batches.b1!;
    const timeline = computeBatchTimeline(batch, 1200);
    expect(timeline.spanMs).toBe(100);
    expect(timeline.bars.map((bar) => [bar.callId, bar.queued, bar.run, bar.live])).toEqual([
      ['call-a', { startPercent: 0, widthPercent: 100 }, undefined, false],
      ['call-b', { startPercent: 0, widthPercent: 100 }, undefined, false],
      ['call-c', { startPercent: 0, widthPercent: 2 }, { startPercent: 2, widthPercent: 98 }, true],
    ]);
  });

  it('never draws a negative bar when the renderer clock lags the host', () => {
    const batch = foldEvents(emptyFoldedData, skeletonTurn().slice(0, 8)).batches.b1!;
    const timeline = computeBatchTimeline(batch, 500);
    expect(timeline.bars[2]?.run?.widthPercent).toBe(0);
    expect(timeline.spanMs).toBe(2);
  });

  it('draws the person’s approval wait apart from the run, at the start of the call', () => {
    // call-a waited 60 ms of its 1102 … 1300 for the person: approval 1102 … 1162, run 1162 … 1300.
    const events = skeletonTurn().map((event) =>
      event.type === 'tool/end' && event.callId === 'call-a' ? { ...event, approvalMs: 60 } : event,
    );
    const batch = foldEvents(emptyFoldedData, events).batches.b1!;
    const bar = computeBatchTimeline(batch, 99_999).bars[0]!;
    // Percentages of the 201 ms axis, by hand: 2/201, 60/201, 62/201, 138/201.
    expect([bar.approval?.startPercent, bar.approval?.widthPercent].map(rounded)).toEqual([0.995, 29.851]);
    expect([bar.run?.startPercent, bar.run?.widthPercent].map(rounded)).toEqual([30.846, 68.657]);
    expect(computeBatchTimeline(batch, 99_999).bars[1]?.approval).toBeUndefined();
  });
});

describe('the axis of an ended batch', () => {
  it('spans exactly its wall time, as "done in N ms" says, though batch/start was stamped before its clock began', () => {
    // Recording batch/start took 7 ms: it is stamped 1093, while the batch's clock (every queue's start) began at 1100.
    const events = skeletonTurn().map((event) => (event.type === 'batch/start' ? { ...event, at: 1093 } : event));
    const batch = foldEvents(emptyFoldedData, events).batches.b1!;
    expect(batch.wallMs).toBe(201);
    const timeline = computeBatchTimeline(batch, 99_999);
    expect(timeline.spanMs).toBe(201);
    // The same bars as when both agree: hand-computed percentages of 201 ms.
    expect(timeline.bars.map((bar) => [rounded(bar.queued?.startPercent), rounded(bar.run?.widthPercent)])).toEqual([
      [0, 98.507],
      [0, 48.259],
      [0, 23.881],
    ]);
  });
});
