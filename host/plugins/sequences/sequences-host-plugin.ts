import { createSequencesPlugin } from '../../../core/plugins/sequences/create-sequences-plugin.ts';
import type { HostPluginManifest } from '../plugin-part.ts';
import { sequenceBudgetOf } from './sequence-budget-of.ts';
import { SqliteSequenceStore } from './sqlite-sequence-store.ts';

/** The sequences plugin: saved sequences in the store, each run's budget from the settings. */
export const sequencesHostPlugin: HostPluginManifest<object> = {
  prepare:
    () =>
    async ({ db, onInvalidRow, toolApi, settings }) => ({
      plugins: [
        createSequencesPlugin({
          store: new SqliteSequenceStore({ db, onInvalidRow }),
          toolApi,
          budget: () => sequenceBudgetOf(settings()),
        }),
      ],
    }),
};
