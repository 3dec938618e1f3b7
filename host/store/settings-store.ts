import type Database from 'better-sqlite3';
import { parseStoredJson, reportInvalidRow, toStoredJson, type InvalidRowHandler } from './parse-stored-row.ts';
import {
  checkSetting,
  isSettingKey,
  settingsTable,
  type SettingKey,
  type Settings,
} from '../contract/settings-table.ts';
import { StoreError } from './store-error.ts';
import { checkedWrite } from './checked-write.ts';

export interface SettingsStoreOptions {
  db: Database.Database;
  now?: () => number;
  /** Given: a stored value that fails its schema reads as unset and is reported here. Absent: it throws. */
  onInvalidRow?: InvalidRowHandler;
}

type SettingRow = { key: string; value: string };

/**
 * Settings as key → JSON value, each validated by its schema in the settings table (host/contract/settings-table.ts) on write and on
 * read. An unset key reads as `undefined` and is absent from `getAll()`.
 */
export class SettingsStore {
  private readonly now: () => number;
  private readonly onInvalidRow: InvalidRowHandler | undefined;
  private readonly db: Database.Database;
  private readonly statements;

  constructor(options: SettingsStoreOptions) {
    const { db } = options;
    this.db = db;
    this.now = options.now ?? Date.now;
    this.onInvalidRow = options.onInvalidRow;
    this.statements = {
      get: db.prepare<[string], SettingRow>('SELECT key, value FROM settings WHERE key = ?'),
      all: db.prepare<[], SettingRow>('SELECT key, value FROM settings ORDER BY key'),
      upsert: db.prepare<[string, string, number]>(
        'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      ),
      delete: db.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
    };
  }

  get<K extends SettingKey>(key: K): Settings[K] | undefined {
    const row = this.statements.get.get(key);
    return row === undefined ? undefined : (this.parse(row) as Settings[K] | undefined);
  }

  /** Validates and stores one value (untrusted input welcome); StoreError `invalid_value` when it does not fit. */
  set<K extends SettingKey>(key: K, value: NonNullable<Settings[K]>): void {
    if (!isSettingKey(key)) throw new StoreError({ kind: 'invalid_value', detail: `${String(key)} is not a setting` });
    const checked = checkSetting(key, value);
    if (!checked.ok) {
      throw new StoreError({
        kind: 'invalid_value',
        detail: `setting ${key}: ${checked.issues.map((issue) => issue.message).join('; ')}`,
      });
    }
    const json = toStoredJson(checked.value, `setting ${key}`);
    checkedWrite({ db: this.db, what: `setting ${key}` }, () => this.statements.upsert.run(key, json, this.now()));
  }

  /** Removes a setting, so it reads as `undefined` again (StoreError when the disk refuses the write). */
  unset(key: SettingKey): void {
    checkedWrite({ db: this.db, what: `removing setting ${key}` }, () => this.statements.delete.run(key));
  }

  /** Every setting that is set; keys this version does not know (a newer one wrote them) are left out. */
  getAll(): Settings {
    const settings: Record<string, unknown> = {};
    for (const row of this.statements.all.all()) {
      if (!isSettingKey(row.key)) continue;
      const value = this.parse(row);
      if (value !== undefined) settings[row.key] = value;
    }
    return settings as Settings;
  }

  private parse(row: SettingRow): unknown {
    if (!isSettingKey(row.key)) return undefined;
    const parsed = parseStoredJson({
      schema: settingsTable[row.key].schema,
      text: row.value,
      table: 'settings',
      key: row.key,
    });
    if (parsed.ok) return parsed.value;
    reportInvalidRow(parsed.report, this.onInvalidRow);
    return undefined;
  }
}
