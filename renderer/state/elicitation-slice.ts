import type { StateCreator } from 'zustand/vanilla';
import type {
  ElicitationAnswer,
  ElicitationEndNotice,
  ElicitationRequestNotice,
} from '../../host/contract/api-contract.ts';
import { ApiCallError, type ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import { messageOf } from './message-of.ts';

/** Why the host did not take an answer: its words, and the fields it found wrong (by field name). */
export interface ElicitationProblem {
  message: string;
  fields: Record<string, string>;
}

/**
 * The questions plugins put to the person during a call (elicitation), oldest first, as the host
 * announced them; and, per question, why the last answer was not taken. Only the person answers.
 */
export interface ElicitationSlice {
  elicitations: ElicitationRequestNotice[];
  elicitationProblems: Record<string, ElicitationProblem>;
  receiveElicitationNotice(notice: ElicitationRequestNotice | ElicitationEndNotice): void;
  /** Asks the host which questions wait now (at start and after a reconnect). */
  refreshElicitations(): Promise<void>;
  /** Sends the person's answer; the question leaves when the host says it ended. */
  answerElicitation(id: string, answer: ElicitationAnswer): Promise<void>;
}

export function createElicitationSlice(api: ApiClient): StateCreator<AppState, [], [], ElicitationSlice> {
  return (set, get) => ({
    elicitations: [],
    elicitationProblems: {},
    receiveElicitationNotice(notice) {
      const others = get().elicitations.filter((question) => question.id !== notice.id);
      if (notice.type === 'elicitation/request') {
        set({ elicitations: [...others, notice] });
        return;
      }
      const { [notice.id]: _ended, ...problems } = get().elicitationProblems;
      set({ elicitations: others, elicitationProblems: problems });
    },
    async refreshElicitations() {
      try {
        const { questions } = await api.call('elicitations/list', {});
        set({ elicitations: questions });
      } catch (error) {
        // The list is asked again at the next reconnect; a notice brings each new question meanwhile.
        console.warn('Could not list the questions waiting for you:', error);
      }
    },
    async answerElicitation(id, answer) {
      try {
        const result = await api.call('elicitation/answer', {
          id,
          action: answer.action,
          ...(answer.action === 'accept' ? { content: answer.content } : {}),
        });
        if (result.accepted) {
          const { [id]: _answered, ...problems } = get().elicitationProblems;
          set({ elicitationProblems: problems });
          return;
        }
        // No longer waiting (answered elsewhere, withdrawn): it leaves the window.
        set({ elicitations: get().elicitations.filter((question) => question.id !== id) });
        get().showNotice(result.message ?? 'That question no longer waits for an answer.');
      } catch (error) {
        const fields: Record<string, string> = {};
        if (error instanceof ApiCallError) for (const issue of error.issues ?? []) fields[issue.path] ??= issue.message;
        set({ elicitationProblems: { ...get().elicitationProblems, [id]: { message: messageOf(error), fields } } });
      }
    },
  });
}
