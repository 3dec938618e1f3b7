import type { SequenceBudget } from '../../../core/plugins/sequences/sequence-budget.ts';
import { settingValue, type Settings } from '../../contract/settings-table.ts';

/** The sequence budget the settings set (an unset one is its row's default, the plugin's own). */
export function sequenceBudgetOf(settings: Settings): SequenceBudget {
  return {
    maxCalls: settingValue(settings, 'sequenceMaxCalls'),
    maxResultBytes: settingValue(settings, 'sequenceMaxResultBytes'),
    wallTimeMs: settingValue(settings, 'sequenceWallTimeMs'),
  };
}
