import { useEffect, useRef } from 'react';
import type { ApprovalAnswerState } from '../state/approval-answers-slice.ts';
import { useAppStore } from './use-app-store.ts';
import './approval-card.css';

/**
 * The question of a call that needs the person: the tool, its whole arguments, Allow once, Always
 * allow (this tool on this device, from now on) and Deny. Nothing takes the focus when it appears
 * (a stray Enter must not approve); the header's indicator may bring it into sight, focusing the
 * card itself, never a button.
 */
export function ApprovalCard(props: { approvalKey: string }) {
  const approval = useAppStore((state) => state.approvals[props.approvalKey]);
  const answer = useAppStore((state) => state.approvalAnswers[props.approvalKey]);
  const focusRequested = useAppStore((state) => state.approvalFocus === props.approvalKey);
  const answerApproval = useAppStore((state) => state.answerApproval);
  const clearApprovalFocus = useAppStore((state) => state.clearApprovalFocus);
  const deviceAlias = useAppStore((state) =>
    approval?.deviceId === undefined
      ? undefined
      : (state.devices.find((device) => device.id === approval.deviceId && device.status !== 'left-out')?.alias ??
        approval.deviceId),
  );
  const card = useRef<HTMLDivElement>(null);
  const open = approval?.status === 'waiting';

  useEffect(() => {
    if (!focusRequested || !open || !card.current) return;
    card.current.scrollIntoView({ block: 'center' });
    card.current.focus({ preventScroll: true });
    clearApprovalFocus(props.approvalKey);
  }, [focusRequested, open, clearApprovalFocus, props.approvalKey]);

  if (!approval || !open) return null;
  // Sending, taken or refused: only a failed answer may be given again.
  const locked = answer !== undefined && answer.phase !== 'failed';
  const titleId = `approval-title-${props.approvalKey}`;
  const entries = Object.entries(approval.args);
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
      <p className="approval-title" id={titleId}>
        <span className="tool-name" data-testid="approval-tool-name">
          {approval.name}
        </span>{' '}
        needs your approval
      </p>
      {entries.length === 0 ? (
        <p className="approval-no-args">No arguments.</p>
      ) : (
        <dl className="approval-args" data-testid="approval-args">
          {entries.map(([key, value]) => (
            <div key={key} className="approval-arg" data-testid="approval-arg" data-arg={key}>
              <dt>{key}</dt>
              {/* The whole value: a person approves exactly what will be sent, nothing cut off. */}
              <dd className="approval-arg-value">{JSON.stringify(value) ?? String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="approval-actions">
        <button
          type="button"
          className="button button-small button-primary"
          data-testid="approve-button"
          disabled={locked}
          aria-busy={answer?.phase === 'sending' && answer.approved}
          onClick={() => void answerApproval(props.approvalKey, true)}
        >
          Allow once
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="always-allow-button"
          disabled={locked}
          aria-busy={answer?.phase === 'sending' && answer.remember === true}
          aria-describedby={`${titleId}-always`}
          onClick={() => void answerApproval(props.approvalKey, true, true)}
        >
          Always allow
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="deny-button"
          disabled={locked}
          aria-busy={answer?.phase === 'sending' && !answer.approved}
          onClick={() => void answerApproval(props.approvalKey, false)}
        >
          Deny
        </button>
        <AnswerStatus answer={answer} />
      </div>
      <p className="approval-always-scope" id={`${titleId}-always`} data-testid="always-allow-scope">
        Always allow: {approval.name}
        {deviceAlias !== undefined ? ` on ${deviceAlias}` : ''} runs without asking from now on, for every front end;
        revoke it in the {deviceAlias !== undefined ? 'Devices' : 'Plugins'} tab.
      </p>
    </div>
  );
}

function AnswerStatus(props: { answer: ApprovalAnswerState | undefined }) {
  const { answer } = props;
  if (!answer) return <span className="approval-answer-status" aria-live="polite" />;
  if (answer.phase === 'failed') {
    return (
      <span
        className="approval-answer-status approval-answer-failed"
        role="alert"
        data-testid="approval-answer-status"
        data-phase="failed"
      >
        {answer.message}
      </span>
    );
  }
  const text = {
    sending: 'Sending your answer…',
    sent: answer.approved
      ? answer.remember
        ? 'Always allowed; waiting for the host…'
        : 'Allowed; waiting for the host…'
      : 'Denied; waiting for the host…',
    refused: answer.phase === 'refused' && answer.message !== undefined ? answer.message : 'already answered elsewhere',
  }[answer.phase];
  return (
    <span
      className="approval-answer-status"
      aria-live="polite"
      data-testid="approval-answer-status"
      data-phase={answer.phase}
    >
      {text}
    </span>
  );
}
