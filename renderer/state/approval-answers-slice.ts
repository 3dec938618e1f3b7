import type { StateCreator } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';

/**
 * This window's answer to one question. `sending`: on its way; `sent`: the host took it (the
 * question closes when its `approval/end` arrives); `refused`: the host had no such question open
 * (answered elsewhere, or it ended); `failed`: it never arrived, the person may answer again.
 */
export type ApprovalAnswerState =
  | { phase: 'sending'; approved: boolean; remember?: boolean }
  | { phase: 'sent'; approved: boolean; remember?: boolean }
  | { phase: 'refused'; approved: boolean; remember?: boolean }
  | { phase: 'failed'; approved: boolean; remember?: boolean; message: string };

/** The person's answers to the host's questions, and which question the view should bring into sight. */
export interface ApprovalAnswersSlice {
  approvalAnswers: Record<string, ApprovalAnswerState>;
  /** The call id of the question to scroll to and focus; cleared by the card that did it. */
  approvalFocus: string | null;
  /**
   * Sends Allow once (`true`), Always allow (`true` with `remember`: this tool on this device from
   * now on) or Deny for an open question; does nothing while an answer is on its way or once taken.
   */
  answerApproval(callId: string, approved: boolean, remember?: boolean): Promise<void>;
  /** Opens the question's conversation and asks its card to come into sight. */
  showApproval(callId: string): void;
  /** Called by the card once it is in sight. */
  clearApprovalFocus(callId: string): void;
}

/** The slice, with the API its actions call. */
export function createApprovalAnswersSlice(api: ApiClient): StateCreator<AppState, [], [], ApprovalAnswersSlice> {
  return (set, get) => {
    function setAnswer(callId: string, answer: ApprovalAnswerState): void {
      set((state) => ({ approvalAnswers: { ...state.approvalAnswers, [callId]: answer } }));
    }

    return {
      approvalAnswers: {},
      approvalFocus: null,
      async answerApproval(callId, approved, remember) {
        const state = get();
        const phase = state.approvalAnswers[callId]?.phase;
        // One answer per question: a double click or a late click on a closed question sends nothing.
        if (phase === 'sending' || phase === 'sent' || phase === 'refused') return;
        if (state.approvals[callId]?.status !== 'waiting') return;
        const remembered = approved && remember === true ? { remember: true } : {};
        setAnswer(callId, { phase: 'sending', approved, ...remembered });
        try {
          const { accepted } = await api.call('approval/answer', { callId, approved, ...remembered });
          setAnswer(callId, { phase: accepted ? 'sent' : 'refused', approved, ...remembered });
          if (accepted && remembered.remember) void get().refreshStandingApprovals();
        } catch (error) {
          setAnswer(callId, {
            phase: 'failed',
            approved,
            ...remembered,
            message: `Your answer did not reach the host: ${messageOf(error)}`,
          });
        }
      },
      showApproval(callId) {
        const approval = get().approvals[callId];
        if (!approval) return;
        if (get().openConversationId !== approval.conversationId) get().openConversation(approval.conversationId);
        set({ approvalFocus: callId });
      },
      clearApprovalFocus(callId) {
        if (get().approvalFocus === callId) set({ approvalFocus: null });
      },
    };
  };
}
