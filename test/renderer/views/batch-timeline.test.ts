import { describe, expect, it } from 'vitest';
import { emptyFoldedData, foldEvents } from '../../../renderer/state/fold-event.ts';
import {
  computeBatchTimeline,
  curtainStyle,
  roundAxisMs,
  segmentStyle,
} from '../../../renderer/views/batch-timeline.ts';
import { skeletonTurn } from '../helpers/agent-events.ts';

describe('computeBatchTimeline', () => {
  it('places finished calls on one axis from the batch start to its end, from tool/end timings', () => {
    const batch = foldEvents(emptyFoldedData, skeletonTurn()).batches.b1!;
    const timeline = computeBatchTimeline(batch, 99_999);
    // Axis 1100 … 1301 (batch start + wall 201 ms), hand-computed from the tool/end timings, in ms from 1100.
    expect(timeline.spanMs).toBe(201);
    expect(timeline.nowMs).toBe(201);
    expect(timeline.bars.map((bar) => [bar.callId, bar.queued, bar.run, bar.live])).toEqual([
      ['call-a', { startMs: 0, lengthMs: 2 }, { startMs: 2, lengthMs: 198 }, false],
      ['call-b', { startMs: 0, lengthMs: 3 }, { startMs: 3, lengthMs: 97 }, false],
      ['call-c', { startMs: 0, lengthMs: 2 }, { startMs: 2, lengthMs: 48 }, false],
    ]);
  });

  it('grows a running call to now and shows a not-yet-started call as waiting', () => {
    // Up to the first tool/start: call-c runs since 1102, a and b wait.
    const batch = foldEvents(emptyFoldedData, skeletonTurn().slice(0, 8)).batches.b1!;
    const timeline = computeBatchTimeline(batch, 1200);
    // A live axis is at least 1 s long.
    expect([timeline.spanMs, timeline.nowMs]).toEqual([1000, 100]);
    // Growing segments have no length: they end at nowMs.
    expect(timeline.bars.map((bar) => [bar.callId, bar.queued, bar.run, bar.live])).toEqual([
      ['call-a', { startMs: 0 }, undefined, false],
      ['call-b', { startMs: 0 }, undefined, false],
      ['call-c', { startMs: 0, lengthMs: 2 }, { startMs: 2 }, true],
    ]);
  });

  it('keeps every bar the same as time passes: only now moves, and the axis when now reaches its round end', () => {
    // Up to call-c's tool/end (1150): call-c done, a and b running.
    const events = skeletonTurn();
    const batch = foldEvents(emptyFoldedData, events.slice(0, events.findIndex((e) => e.type === 'tool/end') + 1))
      .batches.b1!;
    const early = computeBatchTimeline(batch, 1200);
    const later = computeBatchTimeline(batch, 1700);
    // A live axis is the next round length past now, at least 1 s: 1 s at 100 and at 600 ms, 2 s at 1.5 s.
    expect([early.spanMs, early.nowMs, later.spanMs, later.nowMs]).toEqual([1000, 100, 1000, 600]);
    expect(computeBatchTimeline(batch, 2600)).toMatchObject({ spanMs: 2000, nowMs: 1500 });
    expect(later.bars).toEqual(early.bars);
    expect(later.bars[2]).toMatchObject({ queued: { startMs: 0, lengthMs: 2 }, run: { startMs: 2, lengthMs: 48 } });
  });

  it('never draws a negative bar when the renderer clock lags the host', () => {
    const batch = foldEvents(emptyFoldedData, skeletonTurn().slice(0, 8)).batches.b1!;
    const timeline = computeBatchTimeline(batch, 500);
    // Now is never before what the host already said: call-c's run starts at 2 ms and now is there too.
    expect(timeline.bars[2]?.run).toEqual({ startMs: 2 });
    expect([timeline.spanMs, timeline.nowMs]).toEqual([1000, 2]);
  });

  it('draws the person’s approval wait apart from the run, at the start of the call', () => {
    // call-a waited 60 ms of its 1102 … 1300 for the person: approval 1102 … 1162, run 1162 … 1300.
    const events = skeletonTurn().map((event) =>
      event.type === 'tool/end' && event.callId === 'call-a' ? { ...event, approvalMs: 60 } : event,
    );
    const batch = foldEvents(emptyFoldedData, events).batches.b1!;
    const bar = computeBatchTimeline(batch, 99_999).bars[0]!;
    // In ms from 1100, by hand: the wait 2 … 62, the run 62 … 200.
    expect(bar.approval).toEqual({ startMs: 2, lengthMs: 60 });
    expect(bar.run).toEqual({ startMs: 62, lengthMs: 138 });
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
    // The same bars as when both agree: in ms from 1100, by hand.
    expect(timeline.bars.map((bar) => [bar.queued?.startMs, bar.run?.lengthMs])).toEqual([
      [0, 198],
      [0, 97],
      [0, 48],
    ]);
  });
});

describe('roundAxisMs', () => {
  it('is the smallest of 1, 2, 5 × 10ⁿ ms at least as long', () => {
    expect([0, 1, 1.5, 2, 3, 5, 7, 10, 11, 100, 101, 600, 1000, 1001, 2500, 6000].map(roundAxisMs)).toEqual([
      1, 1, 2, 2, 5, 5, 10, 10, 20, 100, 200, 1000, 1000, 2000, 5000, 10_000,
    ]);
  });
});

describe('segmentStyle', () => {
  it('places a finished segment in ms of the panel axis (--axis-ms), at least minWidth wide', () => {
    expect(segmentStyle({ startMs: 250, lengthMs: 500 }, '2px')).toEqual({
      left: 'calc(100% * 250 / var(--axis-ms))',
      width: 'max(calc(100% * 500 / var(--axis-ms)), 2px)',
    });
  });

  it('draws a growing segment to the axis end, with no clock of its own (the curtain hides what is past now)', () => {
    expect(segmentStyle({ startMs: 500 })).toEqual({ left: 'calc(100% * 500 / var(--axis-ms))', right: '0' });
  });
});

describe('curtainStyle', () => {
  it('moves over the whole axis in its length, as far along as now is when drawn', () => {
    // Axis 2000 ms, now at 800: the curtain's animation is 2 s long and 800 ms of it has passed.
    expect(curtainStyle({ spanMs: 2000, nowMs: 800 })).toEqual({
      '--curtain-ms': '2000ms',
      '--curtain-delay': '-800ms',
    });
    // Now never lies outside the axis.
    expect(curtainStyle({ spanMs: 1000, nowMs: 1500 })['--curtain-delay']).toBe('-1000ms');
  });
});
