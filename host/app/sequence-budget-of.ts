import type { SequenceBudget } from '../../core/sequences/sequence-budget.ts';
import type { Settings } from '../contract/settings-table.ts';

/** The sequence budget the settings set (unset fields keep the plugin's defaults). */
export function sequenceBudgetOf(settings: Settings): Partial<SequenceBudget> {
  return {
    ...(settings.sequenceMaxCalls !== undefined ? { maxCalls: settings.sequenceMaxCalls } : {}),
    ...(settings.sequenceMaxResultBytes !== undefined ? { maxResultBytes: settings.sequenceMaxResultBytes } : {}),
    ...(settings.sequenceWallTimeMs !== undefined ? { wallTimeMs: settings.sequenceWallTimeMs } : {}),
  };
}
