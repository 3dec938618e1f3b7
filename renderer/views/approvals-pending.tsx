import { approvalKeyOf, countOpenApprovals, openApprovals } from '../state/approvals-reducer.ts';
import { useAppStore } from './use-app-store.ts';

/**
 * The header's sign that the agent waits for the person, in any conversation, so it is seen from
 * anywhere; pressing it opens the oldest question's conversation and brings its card into sight.
 */
export function ApprovalsPending() {
  const count = useAppStore(countOpenApprovals);
  const oldest = useAppStore((state) => {
    const first = openApprovals(state)[0];
    return first === undefined ? undefined : approvalKeyOf(first);
  });
  const showApproval = useAppStore((state) => state.showApproval);
  if (count === 0) return null;
  return (
    <button
      type="button"
      className="approvals-pending"
      data-testid="approvals-pending"
      data-count={count}
      title="Show the question"
      onClick={() => {
        if (oldest !== undefined) showApproval(oldest);
      }}
    >
      <span className="approvals-pending-count" data-testid="approvals-pending-count">
        {count}
      </span>{' '}
      {count === 1 ? 'question' : 'questions'} waiting for you
    </button>
  );
}
