import type { CallOutcome } from './call-outcome.ts';
import type { ToolErrorReason } from './tool-error.ts';

/** A call's outcome in words for people: a short label, and what it means for the home. */
export interface OutcomeWords {
  label: string;
  meaning: string;
}

/** What a call reaches unless its tool says otherwise (`ToolDefinition.reaches`). */
const DEVICE = 'the device';

const WORDS: Record<CallOutcome, (reaches: string) => OutcomeWords> = {
  done: () => ({ label: 'done', meaning: 'it ran and succeeded' }),
  failed: () => ({ label: 'failed', meaning: 'it ran and answered that it failed' }),
  not_sent: (reaches) => ({ label: 'not sent', meaning: `nothing reached ${reaches}: it did not act` }),
  unknown: (reaches) => ({
    label: 'outcome unknown',
    meaning: `the request left but no answer came: ${reaches} may have acted`,
  }),
};

/**
 * Pure: the words every front end uses for a call's outcome (the batch panel, the CLI), so a
 * person reads the same thing everywhere. A call whose outcome was not recorded (an old journal)
 * is described from `ok` alone. `reaches` names what the call reached when it is not a device
 * (the `reaches` of its `tool/end`: an MCP server).
 */
export function describeCallOutcome(outcome: CallOutcome | undefined, ok?: boolean, reaches?: string): OutcomeWords {
  if (outcome !== undefined) return WORDS[outcome](reaches ?? DEVICE);
  return ok ? WORDS.done(DEVICE) : { label: 'failed', meaning: 'it did not succeed' };
}

/**
 * Pure: a failure's reason as front ends show it. The code stays in the data; a call that reaches
 * something other than a device (`reaches`: an MCP server) is `not connected`, not `device_offline`.
 */
export function describeErrorReason(reason: ToolErrorReason, reaches?: string): string {
  return reason === 'device_offline' && reaches !== undefined ? 'not connected' : reason;
}
