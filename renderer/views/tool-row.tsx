import type { ApprovalView } from '../state/approvals-reducer.ts';
import type { ToolRowView } from '../state/batches-reducer.ts';
import { ApprovalCard } from './approval-card.tsx';
import { approvalLabel } from './approval-label.ts';
import type { TimelineBar } from './batch-timeline.ts';
import { formatDuration, summarizeArgs } from './summarize-args.ts';
import { useAppStore } from './use-app-store.ts';

/** One call of a batch: name, arguments, the person's approval where asked, outcome, and its bar on the batch's time axis. */
export function ToolRow(props: { row: ToolRowView; bar: TimelineBar | undefined }) {
  const { row, bar } = props;
  const approval = useAppStore((state) => state.approvals[row.callId]);
  const waiting = approval?.status === 'waiting';
  return (
    <li
      className={`tool-row tool-row-${row.status}${row.ok === false ? ' tool-row-failed' : ''}${waiting ? ' tool-row-waiting' : ''}`}
      data-testid="tool-row"
      data-tool-name={row.name}
      data-call-id={row.callId}
      data-ok={row.ok === undefined ? undefined : String(row.ok)}
      data-status={row.status}
      data-approval={approval?.status}
    >
      <div className="tool-line">
        <span className="tool-index">{row.index + 1}</span>
        <span className="tool-name">{row.name}</span>
        <span className="tool-args" title={summarizeArgs(row.args, 2000)}>
          {summarizeArgs(row.args)}
        </span>
        {approval && !waiting && <ApprovalOutcome approval={approval} />}
        {waiting && row.status !== 'done' ? (
          <span className="tool-outcome tool-outcome-waiting tool-outcome-approval" data-testid="approval-waiting">
            {approvalLabel('waiting')}
          </span>
        ) : (
          <Outcome row={row} />
        )}
      </div>
      <div className="timing-bar" data-testid="timing-bar" data-live={bar?.live ? 'true' : undefined}>
        {bar?.queued && bar.queued.widthPercent > 0 && (
          <span
            className="timing-queued"
            style={{ left: `${bar.queued.startPercent}%`, width: `${bar.queued.widthPercent}%` }}
          />
        )}
        {bar?.run && (
          <span
            className={bar.live ? 'timing-run timing-run-live' : 'timing-run'}
            style={{ left: `${bar.run.startPercent}%`, width: `max(${bar.run.widthPercent}%, 2px)` }}
          />
        )}
      </div>
      {/* The card shows itself only while the question is open. */}
      {approval && <ApprovalCard callId={row.callId} />}
    </li>
  );
}

/** How the person's approval ended, and whether this window's own answer came too late. */
function ApprovalOutcome(props: { approval: ApprovalView }) {
  const { approval } = props;
  const refused = useAppStore((state) => state.approvalAnswers[approval.callId]?.phase === 'refused');
  return (
    <span
      className={`approval-outcome approval-outcome-${approval.status}`}
      data-testid="approval-outcome"
      data-approval={approval.status}
      // The call's run time includes the person's wait: say how much of it was theirs.
      title={
        approval.requestedAt !== undefined && approval.endedAt !== undefined
          ? `${formatDuration(approval.endedAt - approval.requestedAt)} after the question`
          : undefined
      }
    >
      {approvalLabel(approval.status)}
      {refused && <span className="approval-outcome-note"> · already answered elsewhere</span>}
    </span>
  );
}

function Outcome(props: { row: ToolRowView }) {
  const { row } = props;
  if (row.status === 'queued') return <span className="tool-outcome tool-outcome-waiting">queued</span>;
  if (row.status === 'running') return <span className="tool-outcome tool-outcome-waiting">running…</span>;
  if (row.status === 'interrupted') return <span className="tool-outcome tool-outcome-error">interrupted</span>;
  const times = `queued ${formatDuration(row.queuedMs ?? 0)} · ran ${formatDuration(row.runMs ?? 0)}`;
  if (row.ok) {
    return (
      <span className="tool-outcome tool-outcome-ok" title={times}>
        ok · {formatDuration(row.runMs ?? 0)}
      </span>
    );
  }
  return (
    <span
      className="tool-outcome tool-outcome-error"
      title={[row.error?.detail, times, row.error?.hint].filter(Boolean).join('\n')}
    >
      <span className="tool-error-reason" data-testid="tool-error-reason">
        {row.error?.reason ?? 'failed'}
      </span>
      {row.error?.field && <span className="tool-error-field"> ({row.error.field})</span>}
      {row.error?.detail && <span className="tool-error-detail">: {row.error.detail}</span>}
    </span>
  );
}
