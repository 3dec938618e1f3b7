import type Database from 'better-sqlite3';
import { checkedWrite } from './checked-write.ts';

export interface PluginStateStoreOptions {
  db: Database.Database;
  now?: () => number;
}

/** Whether each plugin is enabled, persisted; a plugin never toggled is enabled. */
export class PluginStateStore {
  private readonly now: () => number;
  private readonly db: Database.Database;
  private readonly statements;

  constructor(options: PluginStateStoreOptions) {
    const { db } = options;
    this.db = db;
    this.now = options.now ?? Date.now;
    this.statements = {
      get: db.prepare<[string], number>('SELECT enabled FROM plugin_state WHERE name = ?').pluck(),
      disabled: db.prepare<[], string>('SELECT name FROM plugin_state WHERE enabled = 0 ORDER BY name').pluck(),
      upsert: db.prepare<[string, number, number]>(
        'INSERT INTO plugin_state (name, enabled, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at',
      ),
    };
  }

  isEnabled(pluginName: string): boolean {
    return this.statements.get.get(pluginName) !== 0;
  }

  /** Persists the state; StoreError (`disk_full`, `read_only`, `write_failed`) when the disk refuses it. */
  setEnabled(pluginName: string, enabled: boolean): void {
    checkedWrite({ db: this.db, what: `the state of plugin ${pluginName}` }, () =>
      this.statements.upsert.run(pluginName, enabled ? 1 : 0, this.now()),
    );
  }

  /** The names of the disabled plugins, sorted. */
  listDisabled(): string[] {
    return this.statements.disabled.all();
  }
}
