import { useAppStore } from './use-app-store.ts';
import { useNow } from './use-now.ts';
import { computeBatchTimeline } from './batch-timeline.ts';
import { formatDuration } from './summarize-args.ts';
import { ToolRow } from './tool-row.tsx';

/** One batch: mode and reason, a row and a timeline bar per call in index order, and its totals. */
export function BatchPanel(props: { batchId: string }) {
  const batch = useAppStore((state) => state.batches[props.batchId]);
  const now = useNow(batch !== undefined && batch.endedAt === undefined);
  if (!batch) return null;
  const timeline = computeBatchTimeline(batch, now);
  const finished = batch.rows.filter((row) => row.status === 'done').length;
  return (
    <section
      className={`batch-panel batch-panel-${batch.mode}`}
      data-testid="batch-panel"
      data-batch-id={batch.id}
      aria-label={`Batch ${batch.sequence}`}
    >
      <header className="batch-header">
        <span className="batch-mode" data-testid="batch-mode">
          {batch.mode}
        </span>
        <span className="batch-reason" data-testid="batch-reason">
          {batch.reason}
        </span>
        <span className="batch-totals">
          {batch.wallMs !== undefined ? (
            <>
              <span data-testid="batch-wall-time">{formatDuration(batch.wallMs)}</span> wall ·{' '}
              <span data-testid="batch-executed">{batch.executed}</span> executed
            </>
          ) : batch.interrupted ? (
            'interrupted'
          ) : (
            `${finished} of ${batch.rows.length} done`
          )}
        </span>
      </header>
      <ol className="tool-rows">
        {batch.rows.map((row, position) => (
          <ToolRow key={row.callId} row={row} bar={timeline.bars[position]} />
        ))}
      </ol>
      <div className="batch-axis" aria-hidden="true">
        <span />
        <span className="batch-axis-scale">
          <span>0</span>
          <span>{formatDuration(timeline.spanMs)}</span>
        </span>
      </div>
    </section>
  );
}
