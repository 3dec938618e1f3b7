import { useState, type ReactNode } from 'react';
import type { ApprovalAnswerState } from '../state/approval-answers-slice.ts';
import { ArgumentsEditor } from './arguments-editor.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * One call's question, inside a card (alone, or one of a batch's): the tool, its device, its whole
 * arguments, and its own answers — Allow once, Always allow (this tool on this device, from now on),
 * Deny, and Edit arguments (allowed once with the person's edit, never always). `extra` is a slot
 * for what a call may need besides (a PIN field).
 */
export function ApprovalCall(props: { approvalKey: string; titleId: string; inBatch: boolean; extra?: ReactNode }) {
  const { approvalKey, titleId } = props;
  const approval = useAppStore((state) => state.approvals[approvalKey]);
  const answer = useAppStore((state) => state.approvalAnswers[approvalKey]);
  const answerApproval = useAppStore((state) => state.answerApproval);
  const answerApprovalEdited = useAppStore((state) => state.answerApprovalEdited);
  const deviceAlias = useAppStore((state) =>
    approval?.deviceId === undefined
      ? undefined
      : (state.devices.find((device) => device.id === approval.deviceId && device.status !== 'left-out')?.alias ??
        approval.deviceId),
  );
  const [editing, setEditing] = useState(false);
  if (!approval) return null;
  // Sending, taken or refused: only a failed answer may be given again.
  const locked = answer !== undefined && answer.phase !== 'failed';
  const entries = Object.entries(approval.args);
  const editorId = `${titleId}-editor`;
  return (
    <>
      <p className="approval-title" id={titleId}>
        {props.inBatch && <span className="approval-call-index">{approval.index + 1}. </span>}
        <span className="tool-name" data-testid="approval-tool-name">
          {approval.name}
        </span>
        {props.inBatch && deviceAlias !== undefined && (
          <>
            {' on '}
            <span data-testid="approval-device">{deviceAlias}</span>
          </>
        )}
        {props.inBatch ? '' : ' needs your approval'}
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
      {props.extra}
      {editing && (
        <ArgumentsEditor
          id={editorId}
          toolName={approval.name}
          args={approval.args}
          disabled={locked}
          onCancel={() => setEditing(false)}
          onAllow={(args) => void answerApprovalEdited(approvalKey, args)}
        />
      )}
      <div className="approval-actions">
        {!editing && (
          <button
            type="button"
            className="button button-small button-primary"
            data-testid="approve-button"
            disabled={locked}
            aria-busy={answer?.phase === 'sending' && answer.approved && !answer.edited}
            onClick={() => void answerApproval(approvalKey, true)}
          >
            Allow once
          </button>
        )}
        {!editing && !approval.needsPin && (
          <button
            type="button"
            className="button button-small"
            data-testid="always-allow-button"
            disabled={locked}
            aria-busy={answer?.phase === 'sending' && answer.remember === true}
            aria-describedby={`${titleId}-always`}
            onClick={() => void answerApproval(approvalKey, true, true)}
          >
            Always allow
          </button>
        )}
        <button
          type="button"
          className="button button-small"
          data-testid="deny-button"
          disabled={locked}
          aria-busy={answer?.phase === 'sending' && !answer.approved}
          onClick={() => void answerApproval(approvalKey, false)}
        >
          Deny
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="edit-arguments-button"
          disabled={locked}
          aria-expanded={editing}
          aria-controls={editing ? editorId : undefined}
          onClick={() => setEditing(!editing)}
        >
          Edit arguments
        </button>
        <AnswerStatus answer={answer} />
      </div>
      {!editing && !approval.needsPin && (
        <p className="approval-always-scope" id={`${titleId}-always`} data-testid="always-allow-scope">
          Always allow: {approval.name}
          {deviceAlias !== undefined ? ` on ${deviceAlias}` : ''} runs without asking from now on, for every front end;
          revoke it in the {deviceAlias !== undefined ? 'Devices' : 'Plugins'} tab.
        </p>
      )}
    </>
  );
}

/** Where this window's answer to one question stands, in words. */
export function AnswerStatus(props: { answer: ApprovalAnswerState | undefined }) {
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
        : answer.edited
          ? 'Allowed with your arguments; waiting for the host…'
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
