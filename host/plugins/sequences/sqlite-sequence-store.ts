import type Database from 'better-sqlite3';
import type { SequenceStore } from '../../../core/plugins/sequences/sequence-store.ts';
import { sequenceSchema, type Sequence } from '../../../core/plugins/sequences/sequence-schema.ts';
import {
  parseStoredJson,
  reportInvalidRow,
  toStoredJson,
  type InvalidRowHandler,
} from '../../store/parse-stored-row.ts';
import { checkedWrite } from '../../store/checked-write.ts';

/** Saved sequences, one row each, their definition as JSON re-validated when read back. */
export class SqliteSequenceStore implements SequenceStore {
  private readonly statements;
  private readonly now: () => number;

  constructor(
    private readonly options: { db: Database.Database; now?: () => number; onInvalidRow?: InvalidRowHandler },
  ) {
    const { db } = options;
    this.now = options.now ?? Date.now;
    this.statements = {
      list: db.prepare<[], { name: string; definition: string }>(
        'SELECT name, definition FROM sequences ORDER BY name',
      ),
      get: db.prepare<[string], { name: string; definition: string }>(
        'SELECT name, definition FROM sequences WHERE name = ?',
      ),
      upsert: db.prepare<[string, string, number]>(
        'INSERT INTO sequences (name, definition, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at',
      ),
      delete: db.prepare<[string]>('DELETE FROM sequences WHERE name = ?'),
    };
  }

  async list(): Promise<Sequence[]> {
    return this.statements.list.all().flatMap((row) => this.parse(row) ?? []);
  }

  async get(name: string): Promise<Sequence | undefined> {
    const row = this.statements.get.get(name);
    return row === undefined ? undefined : this.parse(row);
  }

  /** Stores the sequence; StoreError (`disk_full`, `read_only`, `write_failed`) when the disk refuses it. */
  async save(sequence: Sequence): Promise<void> {
    const json = toStoredJson(sequence, 'a sequence');
    checkedWrite({ db: this.options.db, what: `sequence ${sequence.name}` }, () =>
      this.statements.upsert.run(sequence.name, json, this.now()),
    );
  }

  async delete(name: string): Promise<boolean> {
    return checkedWrite(
      { db: this.options.db, what: `removing sequence ${name}` },
      () => this.statements.delete.run(name).changes > 0,
    );
  }

  private parse(row: { name: string; definition: string }): Sequence | undefined {
    const parsed = parseStoredJson({ schema: sequenceSchema, text: row.definition, table: 'sequences', key: row.name });
    if (parsed.ok) return parsed.value;
    reportInvalidRow(parsed.report, this.options.onInvalidRow);
    return undefined;
  }
}
