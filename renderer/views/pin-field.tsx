import { useAppStore } from './use-app-store.ts';

/**
 * The "PIN" field of a question whose call needs the approval PIN (nothing for other questions): what
 * is typed goes with this question's approval, or with "Allow all" of its batch, and is checked by the
 * host; it is never shown back. Other answers (Deny) need no PIN.
 */
export function PinField(props: { approvalKey: string }) {
  const needsPin = useAppStore((state) => state.approvals[props.approvalKey]?.needsPin === true);
  const value = useAppStore((state) => state.pinDrafts[props.approvalKey] ?? '');
  const setPinDraft = useAppStore((state) => state.setPinDraft);
  if (!needsPin) return null;
  const inputId = `approval-pin-${props.approvalKey}`;
  return (
    <div className="approval-pin" data-testid="approval-pin">
      <label htmlFor={inputId}>PIN</label>
      <input
        id={inputId}
        className="setting-input approval-pin-input"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={12}
        aria-describedby={`${inputId}-hint`}
        data-testid="approval-pin-input"
        value={value}
        onChange={(event) => setPinDraft(props.approvalKey, event.currentTarget.value)}
      />
      <span id={`${inputId}-hint`} className="setting-hint">
        This call needs the approval PIN to be allowed; Always allow is not offered for it.
      </span>
    </div>
  );
}
