import type { ConventionState, StateExpectation } from './convention-device.ts';

/** What happens to a published call: the broker acknowledged it, the device published a state, or time ran out. */
export type CompletionEvent =
  { type: 'acknowledged' } | { type: 'state'; state: ConventionState } | { type: 'timeout' };

/**
 * Where a published call stands. `waiting` until it completes; `done` with `confirmed` true when
 * the device's state says it acted, false when there is no state to wait for and the broker took
 * it; `timed_out` when neither came in time (the request may have acted: outcome unknown).
 */
export type Completion =
  | { phase: 'waiting'; acknowledged: boolean; lastState?: ConventionState }
  | { phase: 'done'; confirmed: boolean; state?: ConventionState }
  | { phase: 'timed_out'; acknowledged: boolean; lastState?: ConventionState };

/** A call just published: nothing acknowledged, no state seen. */
export const PUBLISHED: Completion = { phase: 'waiting', acknowledged: false };

/**
 * Pure: the next standing of a call. With an expectation, only a state that matches it completes
 * (confirmed), even one that comes before the broker's acknowledgement; a state that does not match
 * is kept to say what the device reported. Without one, the acknowledgement completes it, unconfirmed.
 * A completed call stays as it is.
 */
export function nextCompletion(
  current: Completion,
  event: CompletionEvent,
  expectation: StateExpectation | undefined,
): Completion {
  if (current.phase !== 'waiting') return current;
  switch (event.type) {
    case 'acknowledged':
      return expectation === undefined ? { phase: 'done', confirmed: false } : { ...current, acknowledged: true };
    case 'state':
      if (expectation === undefined) return current;
      return expectation.matches(event.state)
        ? { phase: 'done', confirmed: true, state: event.state }
        : { ...current, lastState: event.state };
    case 'timeout':
      return {
        phase: 'timed_out',
        acknowledged: current.acknowledged,
        ...(current.lastState ? { lastState: current.lastState } : {}),
      };
  }
}
