import { useEffect, useRef, type HTMLAttributes, type ReactNode } from 'react';

/** One of the question's two answers: its words and, where a test or a person finds it by one, its test id. */
export interface QuestionAnswer {
  label: ReactNode;
  testId?: string;
}

/**
 * A question asked in place before something that cannot be undone: its text, the safe answer
 * (which takes the focus and which Escape picks) and the dangerous one. Without `confirm`, only
 * the safe answer is offered. The box's own attributes (class, role, name, test id) are the caller's.
 */
export function ConfirmQuestion(
  props: HTMLAttributes<HTMLDivElement> & {
    /** The class of the row holding the two buttons. */
    actionsClassName: string;
    keep: QuestionAnswer;
    confirm?: QuestionAnswer;
    onKeep: () => void;
    onConfirm: () => void;
    children: ReactNode;
  },
) {
  const { actionsClassName, keep, confirm, onKeep, onConfirm, children, ...box } = props;
  const keepButton = useRef<HTMLButtonElement>(null);
  useEffect(() => keepButton.current?.focus(), []);
  return (
    <div
      {...box}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onKeep();
        }
      }}
    >
      {children}
      <div className={actionsClassName}>
        <button
          type="button"
          className="button button-small"
          ref={keepButton}
          data-testid={keep.testId}
          onClick={onKeep}
        >
          {keep.label}
        </button>
        {confirm && (
          <button
            type="button"
            className="button button-small button-danger"
            data-testid={confirm.testId}
            onClick={onConfirm}
          >
            {confirm.label}
          </button>
        )}
      </div>
    </div>
  );
}
