import type { CallOutcome } from './call-outcome.ts';

/** A call's outcome in words for people: a short label, and what it means for the home. */
export interface OutcomeWords {
  label: string;
  meaning: string;
}

const WORDS: Record<CallOutcome, OutcomeWords> = {
  done: { label: 'done', meaning: 'it ran and succeeded' },
  failed: { label: 'failed', meaning: 'it ran and answered that it failed' },
  not_sent: { label: 'not sent', meaning: 'nothing reached the device: it did not act' },
  unknown: { label: 'outcome unknown', meaning: 'the request left but no answer came: the device may have acted' },
};

/**
 * Pure: the words every front end uses for a call's outcome (the batch panel, the CLI), so a
 * person reads the same thing everywhere. A call whose outcome was not recorded (an old journal)
 * is described from `ok` alone.
 */
export function describeCallOutcome(outcome: CallOutcome | undefined, ok?: boolean): OutcomeWords {
  if (outcome !== undefined) return WORDS[outcome];
  return ok ? WORDS.done : { label: 'failed', meaning: 'it did not succeed' };
}
