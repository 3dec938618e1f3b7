import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { SqliteSequenceStore } from '../../../../host/plugins/sequences/sqlite-sequence-store.ts';
import type { Sequence } from '../../../../core/plugins/sequences/sequence-schema.ts';
import type { InvalidRowReport } from '../../../../host/store/parse-stored-row.ts';
import { TempStoreFolder } from '../../store/temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

const evening: Sequence = {
  name: 'evening',
  description: 'Lamps on, then show the temperature.',
  groups: [
    { id: 'read', calls: [{ tool: 'thermometer__read', args: { device_id: 'thermometer-1' }, slot: 'reading' }] },
    { id: 'act', calls: [{ tool: 'lamp__set', args: { device_id: 'lamp-1', on: true }, when: 'reading.ok' }] },
  ],
};

describe('SqliteSequenceStore', () => {
  it('keeps sequences across a reopen of the file, by name, and deletes them', async () => {
    const file = folder.file();
    const db = openDatabase({ file });
    await new SqliteSequenceStore({ db }).save(evening);
    db.close();
    const reopened = folder.own(openDatabase({ file }));
    const store = new SqliteSequenceStore({ db: reopened });
    expect(await store.list()).toEqual([evening]);
    expect(await store.get('evening')).toEqual(evening);
    expect(await store.delete('evening')).toBe(true);
    expect(await store.get('evening')).toBeUndefined();
  });

  it('reports a stored definition that no longer validates instead of handing it to the engine', async () => {
    const db = folder.own(openDatabase({ file: folder.file() }));
    db.prepare('INSERT INTO sequences (name, definition, updated_at) VALUES (?, ?, ?)').run(
      'broken',
      '{"name":"broken","groups":"nope"}',
      1,
    );
    const reports: InvalidRowReport[] = [];
    const store = new SqliteSequenceStore({ db, onInvalidRow: (report) => reports.push(report) });
    expect(await store.list()).toEqual([]);
    expect(reports.map((report) => [report.table, report.key])).toEqual([['sequences', 'broken']]);
  });
});
