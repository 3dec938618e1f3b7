import type { BatchRecord, CallRecord } from '../../host/contract/api-contract.ts';

/**
 * A stretch of a call's bar on the batch's shared axis, in ms from the axis's origin. One still
 * growing (a call running or waiting while the batch is live) has no length: it ends at now, which
 * the panel's one curtain marks and moves with time (a CSS animation). A live batch's axis is a round length
 * past now (1, 2, 5 × 10ⁿ ms, at least 1 s) that changes only when now reaches it, so between those steps nothing
 * is drawn again as time passes: rows are drawn again only when their call changes.
 */
export interface TimelineSegment {
  startMs: number;
  lengthMs?: number;
}

/** The bar of one call: how long it queued, how long it waited for the person, how long it ran (so far, while live). */
export interface TimelineBar {
  callId: string;
  queued: TimelineSegment | undefined;
  /** The person's approval wait, drawn apart from the run (absent when nobody was asked). */
  approval: TimelineSegment | undefined;
  run: TimelineSegment | undefined;
  /** The run segment is still growing. */
  live: boolean;
}

/** All bars of a batch on one time axis, in row (index) order, and the axis length in ms. */
export interface BatchTimeline {
  /** The axis's length: an ended batch's wall time; a live batch's next round length past now. */
  spanMs: number;
  /** Where now is on the axis, in ms from its origin: where growing segments end. */
  nowMs: number;
  bars: TimelineBar[];
  /**
   * While the model's reply was still streaming (from `batch/open` to `batch/start`, or to now while
   * it streams): drawn when calls started in it, so they show against the stream.
   */
  stream?: TimelineSegment;
}

/**
 * Pure: places every call of a batch on a shared axis that starts when the batch started.
 * Finished calls use tool/end's exact times (queued = startedAt − queuedMs … startedAt, run =
 * startedAt … endedAt); a call still running grows to `now`, a queued one waits until `now`.
 */
export function computeBatchTimeline(batch: BatchRecord, now: number): BatchTimeline {
  const live = batch.endedAt === undefined;
  const until = live ? Math.max(now, latestKnownTime(batch)) : (batch.endedAt as number);
  const spans = batch.calls.map((row) => rowSpans(row, { batchStartedAt: batch.openedAt, until }));
  // An ended batch: its own clock (where its calls' queues began) and exactly its wall time, so the
  // axis says what "done in N ms" says; batch/start's stamp is earlier by the time it took to record.
  const clock = batch.wallMs !== undefined ? batchClockStart(batch) : undefined;
  const origin =
    clock ?? Math.min(batch.openedAt, ...spans.flatMap((span) => [span.queued?.[0], span.run?.[0]].filter(isNumber)));
  const end =
    clock !== undefined
      ? clock + (batch.wallMs as number)
      : Math.max(
          origin + (batch.wallMs ?? 0),
          // A live batch's axis reaches now, even before its first call is known (the reply streams).
          ...(live ? [until] : []),
          ...spans.flatMap((span) => [span.queued?.[1], span.approval?.[1], span.run?.[1]].filter(isNumber)),
        );
  const spanMs = live ? roundAxisMs(Math.max(end - origin, LIVE_AXIS_MIN_MS)) : Math.max(end - origin, 1);
  // Each segment kept within the axis; one still growing ends at now (`nowMs`).
  const toSegment = (range: Range | undefined): TimelineSegment | undefined => {
    if (range === undefined) return undefined;
    const from = Math.min(Math.max(range[0], origin), origin + spanMs);
    if (live && range[2] === 'grows') return { startMs: from - origin };
    const to = Math.min(Math.max(range[1], from), origin + spanMs);
    return { startMs: from - origin, lengthMs: to - from };
  };
  const streamed = batch.startedAt === undefined || batch.calls.some((call) => call.early);
  const streamEnd = batch.startedAt ?? until;
  return {
    spanMs,
    nowMs: until - origin,
    ...(streamed
      ? {
          stream: toSegment(
            batch.startedAt === undefined
              ? [batch.openedAt, Math.max(streamEnd, batch.openedAt), 'grows']
              : [batch.openedAt, Math.max(streamEnd, batch.openedAt)],
          ),
        }
      : {}),
    bars: batch.calls.map((row, position) => {
      const span = spans[position] as RowSpans;
      return {
        callId: row.callId,
        queued: toSegment(span.queued),
        approval: toSegment(span.approval),
        run: toSegment(span.run),
        live: live && row.status === 'running',
      };
    }),
  };
}

/** A live batch's shortest axis: most batches end within it, and each longer one draws every row again. */
const LIVE_AXIS_MIN_MS = 1000;

/** Pure: the smallest of 1, 2, 5 × 10ⁿ ms that is at least `ms` (and at least 1). */
export function roundAxisMs(ms: number): number {
  let scale = 1;
  for (;;) {
    for (const step of [1, 2, 5]) if (step * scale >= ms) return step * scale;
    scale *= 10;
  }
}

/**
 * Pure: a segment's place on its axis as CSS, at least `minWidth` wide when given. Places are in ms
 * of the axis whose length the panel gives as `--axis-ms` (styles.css), so a longer axis moves every
 * bar without drawing any row again. A growing one spans the room to the axis's end: the panel's one
 * curtain (`curtainStyle`) hides what lies past now.
 */
export function segmentStyle(segment: TimelineSegment, minWidth?: string): Record<string, string> {
  const left = axisPercent(segment.startMs);
  if (segment.lengthMs === undefined) return { left, right: '0' };
  const width = axisPercent(segment.lengthMs);
  return { left, width: minWidth ? `max(${width}, ${minWidth})` : width };
}

/** Pure: `ms` as a share of the axis, for CSS (the axis's length is the custom property `--axis-ms`). */
function axisPercent(ms: number): string {
  return `calc(100% * ${ms} / var(--axis-ms))`;
}

/**
 * Pure: the curtain of a live batch, as CSS: it covers the bars' column from now to the axis's end
 * and shrinks to the right with time (one animation on the compositor, the class `timing-curtain`), so the
 * bars still growing are drawn once, to the axis's end, and show only up to now. `--curtain-ms` is
 * the axis's length, `--curtain-delay` how much of it has passed when it is drawn.
 */
export function curtainStyle(axis: Pick<BatchTimeline, 'spanMs' | 'nowMs'>): Record<string, string> {
  return {
    '--curtain-ms': `${axis.spanMs}ms`,
    '--curtain-delay': `${-Math.min(Math.max(axis.nowMs, 0), axis.spanMs)}ms`,
  };
}

/** From, to, and whether it still grows to now (while the batch is live). */
type Range = [number, number] | [number, number, 'grows'];

interface RowSpans {
  queued: Range | undefined;
  approval: Range | undefined;
  run: Range | undefined;
}

function rowSpans(row: CallRecord, times: { batchStartedAt: number; until: number }): RowSpans {
  if (row.status === 'done' && row.startedAt !== undefined && row.endedAt !== undefined) {
    // The approval comes before the tool's own work (the gates run first): its wait opens the call.
    const approvalEnd = Math.min(row.startedAt + (row.approvalMs ?? 0), row.endedAt);
    return {
      queued: [row.startedAt - (row.queuedMs ?? 0), row.startedAt],
      approval: row.approvalMs ? [row.startedAt, approvalEnd] : undefined,
      run: [approvalEnd, row.endedAt],
    };
  }
  if (row.runningSince !== undefined) {
    return {
      queued: [times.batchStartedAt, row.runningSince],
      approval: undefined,
      run: [row.runningSince, times.until, 'grows'],
    };
  }
  // Never started: it waited for as long as the batch has been (or was) open.
  return { queued: [times.batchStartedAt, times.until, 'grows'], approval: undefined, run: undefined };
}

/** Where the host's clock of this batch started: every finished call's start less its queue; undefined when none finished. */
function batchClockStart(batch: BatchRecord): number | undefined {
  const starts = batch.calls.flatMap((row) =>
    row.status === 'done' && row.startedAt !== undefined && row.queuedMs !== undefined
      ? [row.startedAt - row.queuedMs]
      : [],
  );
  return starts.length > 0 ? Math.min(...starts) : undefined;
}

/** The host's latest time this batch mentions: a floor for a renderer clock that lags the host's. */
function latestKnownTime(batch: BatchRecord): number {
  return Math.max(batch.openedAt, ...batch.calls.map((row) => Math.max(row.endedAt ?? 0, row.runningSince ?? 0)));
}

function isNumber(value: number | undefined): value is number {
  return value !== undefined;
}
