import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import type { ApprovalAnswer } from '../approvals/person-approval-gate.ts';

/** Why an answer changed nothing: its approvalId names no open question. */
export const NO_SUCH_QUESTION =
  'No such question is waiting for an answer: it may have been answered elsewhere, timed out, or its turn was stopped.';

/** Why edited arguments went nowhere: this host asks no such question (another process's can only be allowed or denied as it stands). */
export const NO_SUCH_QUESTION_TO_EDIT = `${NO_SUCH_QUESTION} A question another Home Agent process on this data folder asked cannot take edited arguments from here: allow or deny it as it stands.`;

/**
 * The person's answers: to one open question, named by its approvalId (`approval/answer`, "Always allow" with `remember`,
 * edited arguments with `args`), or to each of the questions `approvalIds` names (Allow all once, Deny all), and the
 * standing approvals that answer later questions, listed and taken back.
 */
export function approvalHandlers(
  parts: HostParts,
): ApiHandlersOf<'approval/answer' | 'approvals/list' | 'approvals/revoke'> {
  // This host's own question first; else one another process on the data folder waits on (its
  // turn is relayed here from the store), answered by writing the answer where that process reads it.
  const answerOne = (answer: ApprovalAnswer): boolean =>
    parts.approvals.answer(answer) || parts.pendingApprovals?.answer(answer) === true;
  return {
    'approval/answer': (input) => {
      // The PIN is checked once for every question named that needs it; a wrong one allows none of them.
      if (input.approved) {
        const named = input.approvalIds ?? [input.approvalId as string];
        const pinProblem = parts.approvals.verifyPin(named, input.pin) ?? othersPinProblem(parts, named, input.pin);
        if (pinProblem !== undefined) return { accepted: false, message: pinProblem };
      }
      if (input.approvalIds !== undefined) {
        // Each named question alone, nothing else: a question that no longer waits is left out and said.
        const answered = input.approvalIds.filter((approvalId) => answerOne({ approvalId, approved: input.approved }));
        const late = input.approvalIds.filter((approvalId) => !answered.includes(approvalId));
        return late.length === 0
          ? { accepted: true, answered }
          : {
              accepted: false,
              answered,
              message: `${late.length} of the ${input.approvalIds.length} questions no longer waited (${late.join(', ')}): it may have been answered elsewhere, timed out, or its turn was stopped. The others took the answer.`,
            };
      }
      const approvalId = input.approvalId as string;
      if (input.args !== undefined) {
        const problem = parts.approvals.checkEdit(approvalId, input.args);
        if (problem === 'not-here') return { accepted: false, message: NO_SUCH_QUESTION_TO_EDIT };
        if (problem !== undefined) return { accepted: false, message: problem };
        return parts.approvals.answer({ approvalId, approved: true, args: input.args })
          ? { accepted: true }
          : { accepted: false, message: NO_SUCH_QUESTION };
      }
      const answer = {
        approvalId,
        approved: input.approved,
        ...(input.remember !== undefined ? { remember: input.remember } : {}),
      };
      return answerOne(answer) ? { accepted: true } : { accepted: false, message: NO_SUCH_QUESTION };
    },
    'approvals/list': () => ({ approvals: parts.standingApprovals.list() }),
    'approvals/revoke': (input) => {
      const revoked = parts.standingApprovals.revoke({
        tool: input.tool,
        ...(input.deviceId !== undefined ? { deviceId: input.deviceId } : {}),
      });
      if (revoked) parts.notices.emit({ type: 'approvals/changed' });
      return { revoked };
    },
  };
}

/**
 * Why an approval of another process's questions (an MCP client's call waiting for the window) may not
 * be written: one of them needs the PIN and it is not right (a wrong one is counted); undefined when none
 * does or it is right. That process takes the approval as checked here.
 */
function othersPinProblem(
  parts: HostParts,
  approvalIds: readonly string[],
  pin: string | undefined,
): string | undefined {
  if (!approvalIds.some((approvalId) => parts.pendingApprovals?.needsPin?.(approvalId) === true)) return undefined;
  const checked = parts.approvalPin.check(pin);
  return checked.ok ? undefined : checked.message;
}
