import type { StateCreator } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';

/**
 * This window's answer to one question. `sending`: on its way; `sent`: the host took it (the
 * question closes when its `approval/end` arrives); `refused`: the host had no such question open
 * (answered elsewhere, or it ended; `message` is the host's words); `failed`: it never arrived, the
 * person may answer again.
 */
export type ApprovalAnswerState = {
  approved: boolean;
  remember?: boolean;
  /** With the person's edited arguments. */ edited?: boolean;
} & (
  | { phase: 'sending' }
  | { phase: 'sent' }
  | { phase: 'refused'; message?: string }
  | { phase: 'failed'; message: string }
);

/**
 * The person's answers to the host's questions, and which question the view should bring into
 * sight; each question is named by its key in the approvals data (`approvalKeyOf`: its approvalId).
 */
export interface ApprovalAnswersSlice {
  approvalAnswers: Record<string, ApprovalAnswerState>;
  /** The key of the question to scroll to and focus; cleared by the card that did it. */
  approvalFocus: string | null;
  /**
   * Sends Allow once (`true`), Always allow (`true` with `remember`: this tool on this device from
   * now on) or Deny for an open question, naming it by its approvalId alone; does nothing while an
   * answer is on its way or once taken.
   */
  answerApproval(key: string, approved: boolean, remember?: boolean): Promise<void>;
  /**
   * Allow all once (`true`) or Deny all for the open questions named by `keys` (one batch's), in one
   * answer naming exactly their approvalIds; a question already answered or on its way is left out.
   */
  answerApprovals(keys: readonly string[], approved: boolean): Promise<void>;
  /**
   * Allows an open question's call with the person's edited arguments (never remembered); a refusal
   * (they break the tool's schema, or move the call to another device) leaves the question open, saying why.
   */
  answerApprovalEdited(key: string, args: Record<string, unknown>): Promise<void>;
  /** Opens the question's conversation and asks its card to come into sight. */
  showApproval(key: string): void;
  /** Called by the card once it is in sight. */
  clearApprovalFocus(key: string): void;
}

/** Why a question journaled before questions had their own id cannot be answered from the window. */
const NO_APPROVAL_ID = 'This question was recorded before questions had their own id: it cannot be answered.';

/** The slice, with the API its actions call. */
export function createApprovalAnswersSlice(api: ApiClient): StateCreator<AppState, [], [], ApprovalAnswersSlice> {
  return (set, get) => {
    function setAnswer(key: string, answer: ApprovalAnswerState): void {
      set((state) => ({ approvalAnswers: { ...state.approvalAnswers, [key]: answer } }));
    }
    /** The PIN typed for a question (or a batch's first), sent only with an approval. */
    function pinFor(keys: string | readonly string[], approved: boolean): { pin?: string } {
      const drafts = get().pinDrafts;
      const pin = (typeof keys === 'string' ? [keys] : keys).map((key) => drafts[key]).find(Boolean);
      return approved && pin ? { pin } : {};
    }
    /** A refused answer to a question that needs the PIN (a wrong one) may be given again, with another PIN. */
    function refusal(
      key: string,
      message: string | undefined,
    ): { phase: 'refused'; message?: string } | { phase: 'failed'; message: string } {
      return get().approvals[key]?.needsPin
        ? { phase: 'failed', message: message ?? 'The PIN was not taken.' }
        : { phase: 'refused', ...(message !== undefined ? { message } : {}) };
    }

    return {
      approvalAnswers: {},
      approvalFocus: null,
      async answerApproval(key, approved, remember) {
        const state = get();
        const phase = state.approvalAnswers[key]?.phase;
        // One answer per question: a double click or a late click on a closed question sends nothing.
        if (phase === 'sending' || phase === 'sent' || phase === 'refused') return;
        const approval = state.approvals[key];
        if (approval?.status !== 'waiting') return;
        const remembered = approved && remember === true ? { remember: true } : {};
        const { approvalId } = approval;
        if (approvalId === undefined) {
          setAnswer(key, { phase: 'refused', approved, ...remembered, message: NO_APPROVAL_ID });
          return;
        }
        setAnswer(key, { phase: 'sending', approved, ...remembered });
        try {
          const { accepted, message } = await api.call('approval/answer', {
            approvalId,
            approved,
            ...remembered,
            ...pinFor(key, approved),
          });
          setAnswer(
            key,
            accepted
              ? { phase: 'sent', approved, ...remembered }
              : { approved, ...remembered, ...refusal(key, message) },
          );
          if (accepted && remembered.remember) void get().refreshStandingApprovals();
        } catch (error) {
          setAnswer(key, {
            phase: 'failed',
            approved,
            ...remembered,
            message: `Your answer did not reach the host: ${messageOf(error)}`,
          });
        }
      },
      async answerApprovals(keys, approved) {
        const state = get();
        const open = keys.filter((key) => {
          const phase = state.approvalAnswers[key]?.phase;
          const approval = state.approvals[key];
          return (
            phase !== 'sending' &&
            phase !== 'sent' &&
            phase !== 'refused' &&
            approval?.status === 'waiting' &&
            approval.approvalId !== undefined
          );
        });
        if (open.length === 0) return;
        const idOf = (key: string) => state.approvals[key]?.approvalId as string;
        for (const key of open) setAnswer(key, { phase: 'sending', approved });
        try {
          const { answered, message } = await api.call('approval/answer', {
            approvalIds: open.map(idOf),
            approved,
            ...pinFor(open, approved),
          });
          for (const key of open)
            setAnswer(
              key,
              answered?.includes(idOf(key))
                ? { phase: 'sent', approved }
                : {
                    approved,
                    ...(answered?.length === 0
                      ? refusal(open.find((k) => get().approvals[k]?.needsPin) ?? key, message)
                      : refusal(key, message)),
                  },
            );
        } catch (error) {
          for (const key of open)
            setAnswer(key, {
              phase: 'failed',
              approved,
              message: `Your answer did not reach the host: ${messageOf(error)}`,
            });
        }
      },
      async answerApprovalEdited(key, args) {
        const state = get();
        const phase = state.approvalAnswers[key]?.phase;
        if (phase === 'sending' || phase === 'sent' || phase === 'refused') return;
        const approval = state.approvals[key];
        if (approval?.status !== 'waiting' || approval.approvalId === undefined) return;
        setAnswer(key, { phase: 'sending', approved: true, edited: true });
        try {
          const { accepted, message } = await api.call('approval/answer', {
            approvalId: approval.approvalId,
            approved: true,
            args,
            ...pinFor(key, true),
          });
          // Refused edits leave the question open: the person may fix them, or answer otherwise.
          setAnswer(
            key,
            accepted
              ? { phase: 'sent', approved: true, edited: true }
              : {
                  phase: 'failed',
                  approved: true,
                  edited: true,
                  message: message ?? 'The host did not take the arguments.',
                },
          );
        } catch (error) {
          setAnswer(key, {
            phase: 'failed',
            approved: true,
            edited: true,
            message: `Your answer did not reach the host: ${messageOf(error)}`,
          });
        }
      },
      showApproval(key) {
        const approval = get().approvals[key];
        if (!approval) return;
        if (get().openConversationId !== approval.conversationId) get().openConversation(approval.conversationId);
        set({ approvalFocus: key });
      },
      clearApprovalFocus(key) {
        if (get().approvalFocus === key) set({ approvalFocus: null });
      },
    };
  };
}
