import { z } from 'zod';

/**
 * What is known about a call once it ended — the fact a person needs about their home:
 * `done` it ran and succeeded; `failed` it ran and answered that it failed; `not_sent` it never
 * reached its tool or device (refused, invalid, offline, stopped before sending), so nothing acted;
 * `unknown` the request left and no answer came (stopped, timed out, device gone): it may have acted.
 */
export const callOutcomeSchema = z.enum(['done', 'failed', 'not_sent', 'unknown']);
export type CallOutcome = z.infer<typeof callOutcomeSchema>;

const INTERRUPTIONS = new Set(['timeout', 'aborted', 'device_offline']);

/**
 * Pure: the outcome of a call from how far it got. A call whose handler never ran is `not_sent`.
 * An interruption (timeout, abort, device gone) after the handler started is `unknown`, unless the
 * tool reports delivery and says its request never left. Any other failure is the tool's own answer.
 */
export function classifyCallOutcome(call: {
  ok: boolean;
  reason?: string;
  handlerStarted: boolean;
  reportsDelivery: boolean;
  sent: boolean;
}): CallOutcome {
  if (call.ok) return 'done';
  if (!call.handlerStarted) return 'not_sent';
  if (call.reason !== undefined && INTERRUPTIONS.has(call.reason)) {
    return call.reportsDelivery && !call.sent ? 'not_sent' : 'unknown';
  }
  return 'failed';
}
