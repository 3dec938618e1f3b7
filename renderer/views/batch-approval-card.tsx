import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ApprovalCall } from './approval-call.tsx';
import { PinField } from './pin-field.tsx';
import { useApprovalFocus } from './use-approval-focus.ts';
import { useAppStore } from './use-app-store.ts';

/**
 * One card for the calls of one batch that wait for the person, in index order, each with its device,
 * its whole arguments and its own answers; and one answer for them all — "Allow all N once" and
 * "Deny all" — naming exactly the approvalIds of the calls it lists that are not answered yet.
 */
export function BatchApprovalCard(props: { approvalKeys: readonly string[] }) {
  const { approvalKeys } = props;
  const first = useAppStore((state) => state.approvals[approvalKeys[0] ?? '']);
  // Those this window has not answered yet (or whose answer failed): what "all" covers.
  const unanswered = useAppStore(
    useShallow((state) =>
      approvalKeys.filter((key) => {
        const phase = state.approvalAnswers[key]?.phase;
        return phase === undefined || phase === 'failed';
      }),
    ),
  );
  const answerApprovals = useAppStore((state) => state.answerApprovals);
  const card = useRef<HTMLDivElement>(null);
  useApprovalFocus({ keys: approvalKeys, open: true, card });
  if (!first) return null;
  const titleId = `approval-batch-title-${approvalKeys[0]}`;
  const count = unanswered.length;
  return (
    <div
      className="approval-card approval-batch-card"
      ref={card}
      tabIndex={-1}
      role="group"
      aria-labelledby={titleId}
      data-testid="batch-approval-card"
      data-batch-id={first.batchId}
      data-approval-id={first.approvalId}
    >
      <p className="approval-title" id={titleId} data-testid="batch-approval-title">
        {approvalKeys.length} calls of this batch need your approval
      </p>
      <ol className="approval-batch-calls">
        {approvalKeys.map((key) => (
          <li key={key} className="approval-batch-call" data-testid="approval-call" data-approval-key={key}>
            <ApprovalCall
              approvalKey={key}
              titleId={`approval-title-${key}`}
              inBatch
              extra={<PinField approvalKey={key} />}
            />
          </li>
        ))}
      </ol>
      {count >= 2 && (
        <div className="approval-actions approval-batch-actions">
          <button
            type="button"
            className="button button-small button-primary"
            data-testid="allow-all-button"
            onClick={() => void answerApprovals(unanswered, true)}
          >
            Allow all {count} once
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="deny-all-button"
            onClick={() => void answerApprovals(unanswered, false)}
          >
            Deny all
          </button>
        </div>
      )}
    </div>
  );
}
