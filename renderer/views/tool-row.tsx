import { memo, useState } from 'react';
import {
  describeCallOutcome,
  describeDeviceState,
  describeErrorReason,
  type CallRecord,
} from '../../host/contract/api-contract.ts';
import { approvalKeyOf, approvalOfCall, type ApprovalView } from '../state/approvals-reducer.ts';
import { ApprovalCard } from './approval-card.tsx';
import { approvalLabel } from './approval-label.ts';
import { segmentStyle, type TimelineBar, type TimelineSegment } from './batch-timeline.ts';
import { prettyJson } from './format-value.ts';
import { progressText } from './progress-text.ts';
import { formatDuration, summarizeArgs } from './summarize-args.ts';
import { useAppStore } from './use-app-store.ts';

/**
 * One call of a batch: its number, name and arguments (a button that expands the row to the full
 * arguments and the result, or the error with its hint), the person's approval where asked, the
 * outcome in words, and its bar on the batch's time axis with any wait for the person apart.
 */
export const ToolRow = memo(
  ToolRowBody,
  // No clock and no axis length: a bar is placed in ms of the panel's axis (`--axis-ms`), and the
  // panel's curtain shows a growing bar up to now, so neither time passing nor a longer axis draws a row.
  (before, after) =>
    before.batchId === after.batchId &&
    before.row === after.row &&
    before.far === after.far &&
    before.watch === after.watch &&
    sameBar(before.bar, after.bar),
);

/** Two bars that draw the same (a row whose call and bar did not change is not drawn again). */
function sameBar(left: TimelineBar | undefined, right: TimelineBar | undefined): boolean {
  if (left === right) return true;
  if (!left || !right) return false;
  const same = (a?: TimelineSegment, b?: TimelineSegment) =>
    a === b || (a !== undefined && b !== undefined && a.startMs === b.startMs && a.lengthMs === b.lengthMs);
  return (
    left.live === right.live &&
    same(left.queued, right.queued) &&
    same(left.approval, right.approval) &&
    same(left.run, right.run)
  );
}

function ToolRowBody(props: {
  batchId: string;
  row: CallRecord;
  bar: TimelineBar | undefined;
  /** Far from the view in a large batch (use-near-rows.ts): drawn as its line of text alone, unless open or focused. */
  far?: boolean;
  /** The element ref by which the panel sees whether the row is near. */
  watch?: ((element: Element | null) => (() => void) | undefined) | undefined;
}) {
  const { row, bar } = props;
  // By batch and call: a call id alone repeats across conversations.
  const approval = useAppStore((state) => approvalOfCall(state, { batchId: props.batchId, callId: row.callId }));
  const [expanded, setExpanded] = useState(false);
  const [focused, setFocused] = useState(false);
  const waiting = approval?.status === 'waiting';
  const detailsId = `tool-details-${row.callId}`;
  const failed = row.ok === false || row.status === 'interrupted';
  // What tests, styles and the far rows' observer read of a row, drawn whole or far.
  const rowData = {
    'data-testid': 'tool-row',
    'data-tool-name': row.name,
    'data-call-id': row.callId,
    'data-ok': row.ok === undefined ? undefined : String(row.ok),
    'data-status': row.status,
    'data-outcome': row.outcome,
    'data-approval': approval?.status,
  };
  if (props.far && !expanded && !waiting && !focused)
    return (
      <li
        ref={props.watch}
        className={`tool-row tool-row-${row.status} tool-row-far${failed ? ' tool-row-failed' : ''}`}
        {...rowData}
        data-far="true"
      >
        {row.index + 1}{' '}
        <span className="tool-far-line">{`${row.name} ${summarizeArgs(row.args)} · ${farStatus(row)}`}</span>
      </li>
    );
  // The bar says what is known: failed, nothing sent, or unknown (it may have acted).
  const runClass =
    row.outcome === 'unknown' || row.status === 'interrupted'
      ? ' timing-run-unknown'
      : row.outcome === 'not_sent'
        ? ' timing-run-not-sent'
        : failed
          ? ' timing-run-failed'
          : '';
  return (
    <li
      // Open: its details or its question span the row under the live curtain (styles.css).
      className={`tool-row tool-row-${row.status}${failed ? ' tool-row-failed' : ''}${waiting ? ' tool-row-waiting' : ''}${expanded || waiting ? ' tool-row-open' : ''}`}
      {...rowData}
      data-approval-id={approval?.approvalId}
      ref={props.watch}
      // A row holding the focus stays whole however far it is scrolled.
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div className="tool-line">
        <button
          type="button"
          className="tool-toggle"
          aria-expanded={expanded}
          aria-controls={detailsId}
          data-testid="tool-row-toggle"
          onClick={() => setExpanded(!expanded)}
        >
          <span className="tool-chevron" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          <span className="tool-index">{row.index + 1}</span>
          <span className="tool-name">{row.name}</span>
          <span className="tool-args">{summarizeArgs(row.args)}</span>
        </button>
        {row.modelArgs !== undefined && (
          <span
            className="approval-outcome tool-args-edited"
            data-testid="args-edited"
            title={`You changed the arguments: the model asked ${summarizeArgs(row.modelArgs)}`}
          >
            arguments changed by you
          </span>
        )}
        {approval && !waiting && <ApprovalOutcome approval={approval} />}
        {waiting && row.status !== 'done' ? (
          <span className="tool-outcome tool-outcome-waiting tool-outcome-approval" data-testid="approval-waiting">
            {approvalLabel('waiting')}
          </span>
        ) : (
          <Outcome row={row} />
        )}
      </div>
      <div
        className="timing-bar"
        data-testid="timing-bar"
        data-live={bar?.live ? 'true' : undefined}
        aria-hidden="true"
      >
        {bar?.queued && bar.queued.lengthMs !== 0 && (
          <span className="timing-queued" style={segmentStyle(bar.queued)} />
        )}
        {bar?.approval && (
          <span className="timing-approval" data-testid="timing-approval" style={segmentStyle(bar.approval, '2px')} />
        )}
        {bar?.run && (
          <span
            // While the person is asked, the live part of the bar is their wait, not the tool's run.
            className={waiting ? 'timing-approval' : `timing-run${runClass}`}
            style={segmentStyle(bar.run, '2px')}
          />
        )}
      </div>
      {expanded && <ToolDetails id={detailsId} row={row} />}
      {/* The card shows itself only while the question is open. */}
      {approval && <ApprovalCard approvalKey={approvalKeyOf(approval)} />}
    </li>
  );
}

/** Where a far row's call stands, in the words its outcome would say when drawn in full. */
function farStatus(row: CallRecord): string {
  if (row.status === 'queued') return 'queued';
  if (row.status === 'running') return 'running…';
  if (row.status === 'interrupted') return 'no outcome recorded';
  return describeCallOutcome(row.outcome, row.ok, row.reaches).label;
}

/** The expanded row: everything known of the call, in full. */
function ToolDetails(props: { id: string; row: CallRecord }) {
  const { row } = props;
  const words =
    row.status === 'interrupted'
      ? { label: 'no outcome recorded', meaning: 'the app stopped before the call ended: it may have acted' }
      : describeCallOutcome(row.outcome, row.ok, row.reaches);
  return (
    <div className="tool-details" id={props.id} data-testid="tool-details">
      <dl>
        <dt>{row.modelArgs !== undefined ? 'Arguments (as you changed them)' : 'Arguments'}</dt>
        <dd>
          <pre data-testid="tool-details-args">{prettyJson(row.args)}</pre>
        </dd>
        {row.modelArgs !== undefined && (
          <>
            <dt>Asked by the model</dt>
            <dd>
              <pre data-testid="tool-details-model-args">{prettyJson(row.modelArgs)}</pre>
            </dd>
          </>
        )}
        {row.status === 'done' || row.status === 'interrupted' ? (
          <>
            <dt>Outcome</dt>
            <dd data-testid="tool-details-outcome">
              <strong>{words.label}</strong> — {words.meaning}
            </dd>
          </>
        ) : (
          <>
            <dt>Status</dt>
            <dd>{row.status === 'running' ? 'running' : 'queued: waiting for its turn'}</dd>
          </>
        )}
        {row.ok && (
          <>
            <dt>Result</dt>
            <dd>
              <pre data-testid="tool-details-result">{prettyJson(row.result)}</pre>
            </dd>
          </>
        )}
        {row.error && (
          <>
            <dt>Error</dt>
            <dd data-testid="tool-details-error">
              {describeErrorReason(row.error.reason, row.reaches)}
              {row.error.field ? ` (${row.error.field})` : ''}
              {row.error.detail ? `: ${row.error.detail}` : ''}
            </dd>
            {row.error.hint && (
              <>
                <dt>Hint</dt>
                <dd data-testid="tool-details-hint">{row.error.hint}</dd>
              </>
            )}
          </>
        )}
        {row.status === 'done' && (
          <>
            <dt>Time</dt>
            <dd data-testid="tool-details-time">{timeText(row)}</dd>
          </>
        )}
        {row.stateAfterStop && (
          <>
            <dt>Read after the stop</dt>
            <dd data-testid="tool-details-state">
              {row.stateAfterStop.error
                ? `${row.stateAfterStop.deviceId} could not be read (${row.stateAfterStop.error.reason}): it may have acted`
                : `${row.stateAfterStop.deviceId} is now ${describeDeviceState(row.stateAfterStop.result)}.`}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}

/** Queued, ran, and the person's wait apart: `runMs` includes the wait, so the run is what is left. */
function timeText(row: CallRecord): string {
  const waited = row.approvalMs ?? 0;
  const parts = [`queued ${formatDuration(row.queuedMs ?? 0)}`, `ran ${formatDuration((row.runMs ?? 0) - waited)}`];
  if (row.approvalMs !== undefined) parts.push(`waited ${formatDuration(waited)} for you`);
  return parts.join(' · ');
}

/** How the person's approval ended, and whether this window's own answer came too late. */
function ApprovalOutcome(props: { approval: ApprovalView }) {
  const { approval } = props;
  const refused = useAppStore((state) => state.approvalAnswers[approvalKeyOf(approval)]?.phase === 'refused');
  return (
    <span
      className={`approval-outcome approval-outcome-${approval.status}`}
      data-testid="approval-outcome"
      data-approval={approval.status}
    >
      {approvalLabel(approval.status)}
      {refused && <span className="approval-outcome-note"> · already answered elsewhere</span>}
    </span>
  );
}

/** Where the call stands, in words: queued, running, or its outcome (done, failed, not sent, unknown). */
function Outcome(props: { row: CallRecord }) {
  const { row } = props;
  if (row.status === 'queued') return <span className="tool-outcome tool-outcome-waiting">queued</span>;
  if (row.status === 'running')
    return (
      <span className="tool-outcome tool-outcome-waiting" {...(row.progress ? { 'data-testid': 'tool-progress' } : {})}>
        {row.progress ? progressText(row.progress) : 'running…'}
      </span>
    );
  if (row.status === 'interrupted')
    return (
      <span className="tool-outcome tool-outcome-unknown" data-testid="tool-outcome">
        no outcome recorded
      </span>
    );
  const words = describeCallOutcome(row.outcome, row.ok, row.reaches);
  const ran = formatDuration((row.runMs ?? 0) - (row.approvalMs ?? 0));
  if (row.ok) {
    return (
      <span className="tool-outcome tool-outcome-ok" data-testid="tool-outcome">
        {words.label} · {ran}
      </span>
    );
  }
  const className =
    row.outcome === 'unknown'
      ? 'tool-outcome tool-outcome-unknown'
      : row.outcome === 'not_sent'
        ? 'tool-outcome tool-outcome-not-sent'
        : 'tool-outcome tool-outcome-error';
  return (
    <span className={className} data-testid="tool-outcome" title={words.meaning}>
      <span className="tool-outcome-label">{`${words.label} · `}</span>
      <span className="tool-error-reason" data-testid="tool-error-reason">
        {row.error ? describeErrorReason(row.error.reason, row.reaches) : 'failed'}
      </span>
      {row.error?.detail && <span className="tool-error-detail">: {row.error.detail}</span>}
    </span>
  );
}
