import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/** Why an answer changed nothing: its approvalId names no open question. */
export const NO_SUCH_QUESTION =
  'No such question is waiting for an answer: it may have been answered elsewhere, timed out, or its turn was stopped.';

/**
 * The person's answers: to one open question, named by its approvalId (`approval/answer`, "Always allow" with `remember`),
 * and the standing approvals that answer later questions, listed and taken back.
 */
export function approvalHandlers(
  parts: HostParts,
): ApiHandlersOf<'approval/answer' | 'approvals/list' | 'approvals/revoke'> {
  return {
    // This host's own question first; else one another process on the data folder waits on (its
    // turn is relayed here from the store), answered by writing the answer where that process reads it.
    'approval/answer': (input) =>
      parts.approvals.answer(input) || parts.pendingApprovals?.answer(input) === true
        ? { accepted: true }
        : { accepted: false, message: NO_SUCH_QUESTION },
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
