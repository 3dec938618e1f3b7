import { useEffect, type RefObject } from 'react';
import { useAppStore } from './use-app-store.ts';

/**
 * Brings the card into sight and focuses the card itself (never a button: a stray Enter must not
 * approve) when the header's indicator asks for one of the questions it shows.
 */
export function useApprovalFocus(options: {
  keys: readonly string[];
  open: boolean;
  card: RefObject<HTMLElement | null>;
}) {
  const { keys, open, card } = options;
  const requested = useAppStore((state) =>
    state.approvalFocus !== null && keys.includes(state.approvalFocus) ? state.approvalFocus : null,
  );
  const clearApprovalFocus = useAppStore((state) => state.clearApprovalFocus);
  useEffect(() => {
    if (requested === null || !open || !card.current) return;
    card.current.scrollIntoView({ block: 'center' });
    card.current.focus({ preventScroll: true });
    clearApprovalFocus(requested);
  }, [requested, open, card, clearApprovalFocus]);
}
