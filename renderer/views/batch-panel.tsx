import { memo, useEffect, useState } from 'react';
import { useAppStore } from './use-app-store.ts';
import { useNearRows } from './use-near-rows.ts';
import { useRedrawAt } from './use-redraw-at.ts';
import { computeBatchTimeline, curtainStyle, segmentStyle } from './batch-timeline.ts';
import { formatDuration } from './summarize-args.ts';
import { ToolRow } from './tool-row.tsx';

/**
 * About the rows a screen holds: a batch with more draws in full only the rows near the view, the
 * others as their line of text (use-near-rows.ts), and skips drawing rows off screen (styles.css).
 */
export const SCREENFUL_OF_ROWS = 16;

/**
 * Rows a batch adds per frame, most of them far from the view and so their line of text alone: 64 in
 * one frame took 17–19 ms of the main thread's CPU, 32 about 10 (`npm run bench -- --only ui`).
 */
const ROWS_PER_FRAME = 32;

/**
 * One batch: its mode and what decided the order (a serial tool, a shared channel, the cap), a row
 * and a timeline bar per call in index order, a legend for the bars, and its totals. In a batch larger
 * than a screen, a row far from the view is its line of text alone until it comes near (a few a
 * frame, the nearest first), so neither its first drawing (`ROWS_PER_FRAME` rows a frame) nor a call
 * ending off screen costs a frame much.
 */
export const BatchPanel = memo(BatchPanelBody);

function BatchPanelBody(props: { batchId: string }) {
  const batch = useAppStore((state) => state.batches[props.batchId]);
  const live = batch !== undefined && batch.endedAt === undefined;
  // While live, each drawing places now afresh; the curtain keeps time on its own after it.
  const now = live ? Date.now() : 0;
  const timeline = batch ? computeBatchTimeline(batch, now) : undefined;
  // The axis changes only when now reaches its end: the one time passing alone draws the batch again.
  useRedrawAt(live && timeline ? now + timeline.spanMs - timeline.nowMs : undefined);
  const rows = batch?.calls.length ?? 0;
  const near = useNearRows({ enabled: rows > SCREENFUL_OF_ROWS, calls: batch?.calls ?? noCalls });
  const [shown, setShown] = useState(ROWS_PER_FRAME);
  useEffect(() => {
    if (shown >= rows) return undefined;
    const frame = requestAnimationFrame(() => setShown((count) => count + ROWS_PER_FRAME));
    return () => cancelAnimationFrame(frame);
  }, [shown, rows]);
  if (!batch || !timeline) return null;
  const finished = batch.calls.filter((row) => row.status === 'done').length;
  const titleId = `batch-title-${batch.id}`;
  return (
    <section
      className={`batch-panel batch-panel-${batch.mode ?? 'streaming'}${rows > SCREENFUL_OF_ROWS ? ' batch-panel-many' : ''}`}
      data-testid="batch-panel"
      data-batch-id={batch.id}
      aria-labelledby={titleId}
      // Every bar is placed in ms of this axis: a longer one moves them all without drawing a row.
      style={{ '--axis-ms': String(timeline.spanMs) } as Record<string, string>}
    >
      <header className="batch-header">
        <h3 className="batch-title" id={titleId}>
          Batch {batch.sequence}
        </h3>
        <span className="batch-mode" data-testid="batch-mode">
          {batch.mode ?? 'starting while the reply streams'}
        </span>
        {batch.reason !== undefined && (
          <span className="batch-reason" data-testid="batch-reason">
            {reasonWithoutMode(batch.reason)}
          </span>
        )}
        <span className="batch-totals">
          {batch.wallMs !== undefined ? (
            <>
              <span data-testid="batch-executed">{batch.executed}</span> of {batch.calls.length} done in{' '}
              <span data-testid="batch-wall-time">{formatDuration(batch.wallMs)}</span>
            </>
          ) : batch.interrupted ? (
            'interrupted'
          ) : (
            `${finished} of ${batch.calls.length} finished`
          )}
        </span>
      </header>
      {/* The bars' column: the stream, a bar per call, and while live the one curtain that hides what is past now. */}
      <div className="timing-area">
        {timeline.stream && (
          <div className="batch-stream" data-testid="batch-stream" aria-hidden="true">
            <span className="batch-stream-label">reply streaming</span>
            <span className="timing-bar">
              <span className="timing-stream" style={segmentStyle(timeline.stream, '2px')} />
            </span>
          </div>
        )}
        <ol className="tool-rows">
          {batch.calls.slice(0, shown).map((row, position) => (
            <ToolRow
              key={row.callId}
              batchId={batch.id}
              row={row}
              bar={timeline.bars[position]}
              far={!near.isNear(row.callId)}
              watch={near.watch}
            />
          ))}
        </ol>
        {/* A new curtain for a new axis: a running animation given a new delay would count the time passed twice. */}
        {live && <TimingCurtain key={timeline.spanMs} spanMs={timeline.spanMs} nowMs={timeline.nowMs} />}
      </div>
      <div className="batch-axis" aria-hidden="true">
        <span />
        <span className="batch-axis-scale">
          <span>0</span>
          <span>{formatDuration(timeline.spanMs)}</span>
        </span>
      </div>
      <ul className="batch-legend" aria-label="What the bars show" data-testid="batch-legend">
        {timeline.stream && (
          <li>
            <span className="legend-swatch timing-stream" aria-hidden="true" /> reply still streaming (calls started in
            it started early)
          </li>
        )}
        <li>
          <span className="legend-swatch timing-queued" aria-hidden="true" /> queued
        </li>
        <li>
          <span className="legend-swatch timing-approval" aria-hidden="true" /> waiting for you
        </li>
        <li>
          <span className="legend-swatch timing-run" aria-hidden="true" /> running, then ran
        </li>
        <li>
          <span className="legend-swatch timing-run timing-run-failed" aria-hidden="true" /> failed
        </li>
        <li>
          <span className="legend-swatch timing-run timing-run-not-sent" aria-hidden="true" /> not sent
        </li>
        <li>
          <span className="legend-swatch timing-run timing-run-unknown" aria-hidden="true" /> outcome unknown
        </li>
      </ul>
    </section>
  );
}

/**
 * What lies past now on a live batch's axis, hidden: it moves right with time on the compositor, the
 * one animation of the panel however many calls grow. Drawn once per axis (the panel keys it by the axis's length).
 */
const TimingCurtain = memo(
  function TimingCurtain(props: { spanMs: number; nowMs: number }) {
    return (
      <div className="timing-curtain-column" aria-hidden="true">
        <span className="timing-curtain" data-testid="timing-curtain" style={curtainStyle(props)} />
      </div>
    );
  },
  // Not `nowMs`: once drawn, the curtain keeps time by its animation.
  (before, after) => before.spanMs === after.spanMs,
);

const noCalls: readonly { callId: string }[] = [];

/** The mode stands beside the reason: "parallel: all 3 calls are parallel-safe" reads "all 3 calls are parallel-safe". */
function reasonWithoutMode(reason: string): string {
  return reason.replace(/^(parallel|serial): /, '');
}
