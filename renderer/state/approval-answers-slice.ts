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
export type ApprovalAnswerState =
  | { phase: 'sending'; approved: boolean; remember?: boolean }
  | { phase: 'sent'; approved: boolean; remember?: boolean }
  | { phase: 'refused'; approved: boolean; remember?: boolean; message?: string }
  | { phase: 'failed'; approved: boolean; remember?: boolean; message: string };

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
          const { accepted, message } = await api.call('approval/answer', { approvalId, approved, ...remembered });
          setAnswer(
            key,
            accepted
              ? { phase: 'sent', approved, ...remembered }
              : { phase: 'refused', approved, ...remembered, ...(message !== undefined ? { message } : {}) },
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
