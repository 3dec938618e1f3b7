import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/**
 * The person's answers: to one open question (`approval/answer`, "Always allow" with `remember`),
 * and the standing approvals that answer later questions, listed and taken back.
 */
export function approvalHandlers(
  parts: HostParts,
): ApiHandlersOf<'approval/answer' | 'approvals/list' | 'approvals/revoke'> {
  return {
    'approval/answer': (input) => ({
      accepted: parts.approvals.answer(input.callId, input.approved, input.remember === true),
    }),
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
