import type { ToolErrorData } from '../../tools/tool-error.ts';
import type { CallOutcome } from '../../tools/call-outcome.ts';
import type { SequenceBudgetExceeded } from './sequence-budget.ts';

/** ok: succeeded; failed: ran (or could not start) and failed; skipped: its condition was false or the run stopped; refused: not allowed (refused in sequences, or the CanUse/approval gate said no). */
export type SequenceCallStatus = 'ok' | 'failed' | 'skipped' | 'refused';

/** What a slot holds after its call: the outcome, as later args and conditions read it (`reading.ok`). */
export interface SlotValue {
  ok: boolean;
  result?: unknown;
  error?: ToolErrorData;
  /** Set when the call did not run (its condition was false, or the run stopped first). */
  skipped?: true;
}

/** One call of a run. A nested sequence call carries the nested run's report. */
export interface SequenceCallReport {
  index: number;
  tool?: string;
  sequence?: string;
  slot?: string;
  status: SequenceCallStatus;
  result?: unknown;
  error?: ToolErrorData;
  /** For a tool call that failed or was refused: what is known of its effect (`not_sent`: it never left). */
  outcome?: CallOutcome;
  report?: SequenceRunReport;
}

export interface SequenceGroupReport {
  id: string;
  calls: SequenceCallReport[];
}

/**
 * The structured result of a run. `ok` is true when no call failed or was refused (skipped calls
 * are fine) and the run was not stopped; `stopped` says why a run ended early (`timeout` and
 * `budget` come with the `budget` that tripped; a timeout without it is the caller's own).
 */
export interface SequenceRunReport {
  sequence: string;
  groups: SequenceGroupReport[];
  ok: boolean;
  stopped?: 'aborted' | 'timeout' | 'budget';
  budget?: SequenceBudgetExceeded;
  /**
   * The calls the stop kept from starting, and how many whole groups never started: counted, not
   * listed, so a stopped run's report stays small (the listed groups hold only calls that started).
   */
  notStarted?: { groups: number; calls: number; error: ToolErrorData };
}
