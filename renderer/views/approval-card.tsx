import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ApprovalCall } from './approval-call.tsx';
import { PinField } from './pin-field.tsx';
import { BatchApprovalCard } from './batch-approval-card.tsx';
import { openQuestionsOfBatch } from './batch-questions.ts';
import { useApprovalFocus } from './use-approval-focus.ts';
import { useAppStore } from './use-app-store.ts';
import './approval-card.css';

/**
 * The question of a call that needs the person: the tool, its whole arguments, Allow once, Always
 * allow (this tool on this device, from now on), Deny and Edit arguments. When two or more calls of
 * its batch wait, the first of them shows one card for all (BatchApprovalCard) and the others none.
 * Nothing takes the focus when it appears (a stray Enter must not approve); the header's indicator
 * may bring it into sight, focusing the card itself, never a button.
 */
export function ApprovalCard(props: { approvalKey: string }) {
  const approval = useAppStore((state) => state.approvals[props.approvalKey]);
  const open = approval?.status === 'waiting';
  const batch = useAppStore(
    useShallow((state) => (open && approval ? openQuestionsOfBatch(state, approval.batchId) : [])),
  );
  if (!approval || !open) return null;
  if (batch.length >= 2) return batch[0] === props.approvalKey ? <BatchApprovalCard approvalKeys={batch} /> : null;
  return <SingleApprovalCard approvalKey={props.approvalKey} />;
}

function SingleApprovalCard(props: { approvalKey: string }) {
  const approval = useAppStore((state) => state.approvals[props.approvalKey]);
  const card = useRef<HTMLDivElement>(null);
  useApprovalFocus({ keys: [props.approvalKey], open: approval?.status === 'waiting', card });
  if (!approval) return null;
  const titleId = `approval-title-${props.approvalKey}`;
  return (
    <div
      className="approval-card"
      ref={card}
      tabIndex={-1}
      role="group"
      aria-labelledby={titleId}
      data-testid="approval-card"
      data-call-id={approval.callId}
      data-approval-id={approval.approvalId}
    >
      <ApprovalCall
        approvalKey={props.approvalKey}
        titleId={titleId}
        inBatch={false}
        extra={<PinField approvalKey={props.approvalKey} />}
      />
    </div>
  );
}
