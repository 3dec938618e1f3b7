import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMigrations } from '../../../host/store/run-migrations.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

function tablesOf(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

describe('runMigrations', () => {
  it("runs each pending migration once, in order, from the file's version", () => {
    const file = folder.file();
    const db = folder.own(new Database(file));
    const ran: string[] = [];
    const steps = [() => ran.push('one'), () => ran.push('two'), () => ran.push('three')];
    expect(runMigrations({ db, file, migrations: steps.slice(0, 1) })).toEqual({ from: 0, to: 1 });
    expect(runMigrations({ db, file, migrations: steps })).toEqual({ from: 1, to: 3 });
    expect(runMigrations({ db, file, migrations: steps })).toEqual({ from: 3, to: 3 });
    expect(ran).toEqual(['one', 'two', 'three']);
  });

  it('leaves the previous version and none of its changes when a migration throws', () => {
    const file = folder.file();
    const db = folder.own(new Database(file));
    const steps = [
      (target: Database.Database) => target.exec('CREATE TABLE first (x)'),
      (target: Database.Database) => {
        target.exec('CREATE TABLE second (x)');
        throw new Error('disk full, say');
      },
    ];
    expect(() => runMigrations({ db, file, migrations: steps })).toThrow('disk full, say');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tablesOf(db)).toEqual(['first']);
  });

  it('stops with too_new when another process upgraded the file past what it knows', () => {
    const file = folder.file();
    const db = folder.own(new Database(file));
    const other = folder.own(new Database(file));
    other.pragma('user_version = 7');
    expect(() => runMigrations({ db, file, migrations: [() => undefined] })).toThrow(
      expect.objectContaining({ kind: 'too_new', file }),
    );
  });
});
