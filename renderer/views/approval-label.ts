import type { ApprovalStatus } from '../state/approvals-reducer.ts';

const labels: Record<ApprovalStatus, string> = {
  waiting: 'waiting for you',
  allowed: 'allowed by you',
  denied: 'denied by you',
  timeout: 'not answered in time',
  stopped: 'stopped',
  unanswered: 'not answered',
  standing: 'always allowed',
};

/** Pure: how a call's row names where the person's approval stands. */
export function approvalLabel(status: ApprovalStatus): string {
  return labels[status];
}
