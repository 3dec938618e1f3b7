import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { SettingsStore } from '../../../host/store/settings-store.ts';
import { PluginStateStore } from '../../../host/store/plugin-state-store.ts';
import { SqliteSequenceStore } from '../../../host/plugins/sequences/sqlite-sequence-store.ts';
import { StoreError } from '../../../host/store/store-error.ts';
import { mountTmpfs, type MountedTmpfs } from '../../helpers/mount-tmpfs.ts';
import { fullDiskDelta } from './full-disk-delta.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

/** Fills what is left of the file system with one file, so only space SQLite already holds remains. */
function fillDisk(folder: string): void {
  const descriptor = openSync(path.join(folder, 'filler'), 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(descriptor, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(descriptor);
  }
}

/** The sequence numbers the journal really holds, read on a fresh connection. */
function journaledSeqs(file: string): number[] {
  const reader = new Database(file, { readonly: true });
  try {
    return reader
      .prepare<[], number>("SELECT seq FROM events WHERE conversation_id = 'full' ORDER BY seq")
      .pluck()
      .all();
  } finally {
    reader.close();
  }
}

describe('the store on a full disk (a 1 MB tmpfs; skipped, saying why, where none can be mounted)', () => {
  // Mounted here, not when the file loads: a run that filters these tests out mounts nothing.
  let disk: MountedTmpfs | undefined;
  let skipReason = '';
  beforeAll(() => {
    // Room for the schema (it grows with every migration) and a few hundred events after it.
    const mounted = mountTmpfs({ sizeKb: 1024 });
    if ('path' in mounted) disk = mounted;
    else skipReason = mounted.skip;
  });
  afterAll(() => disk?.unmount());
  const file = (): string => path.join((disk as MountedTmpfs).path, 'home-agent.db');

  it('appendEvent throws a disk_full StoreError naming the file, and every sequence number it returned is in the journal', (context) => {
    if (disk === undefined) context.skip(skipReason);
    const db = openDatabase({ file: file() });
    const store = new SqliteConversationStore({ db });
    store.ensureConversation('full', 'A full disk');
    const returned: number[] = [];
    let thrown: unknown;
    // Bounded: the disk holds a few hundred of these events; before the fix none ever threw.
    for (let index = 1; index <= 5_000 && thrown === undefined; index += 1) {
      try {
        returned.push(store.appendEvent(fullDiskDelta(index)));
      } catch (error) {
        thrown = error;
      }
    }
    db.close();
    expect(StoreError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ kind: 'disk_full', file: file() });
    expect((thrown as Error).message).toMatch(/the text\/delta event/);
    expect((thrown as Error).message).toMatch(/Free space/);
    expect(returned.length).toBeGreaterThan(10);
    expect(journaledSeqs(file())).toEqual(returned);
  });

  describe('every other write, once the disk is full', () => {
    let db: Database.Database;
    const stores = {} as {
      conversations: SqliteConversationStore;
      settings: SettingsStore;
      plugins: PluginStateStore;
      sequences: SqliteSequenceStore;
    };
    beforeAll(() => {
      if (disk === undefined) return;
      // A store of its own: the test before filled the disk with the last one.
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file()}${suffix}`, { force: true });
      db = openDatabase({ file: file() });
      // No checkpoint may recycle the write-ahead log, so each commit needs new space.
      db.pragma('wal_autocheckpoint = 0');
      stores.conversations = new SqliteConversationStore({ db });
      stores.settings = new SettingsStore({ db });
      stores.plugins = new PluginStateStore({ db });
      stores.sequences = new SqliteSequenceStore({ db });
      // Rows for the deletes below, written while there may still be room.
      stores.settings.set('model', 'kept-model');
      stores.conversations.ensureConversation('full', 'A full disk');
      fillDisk(disk.path);
    });
    afterAll(() => {
      if (db?.open) db.close();
    });

    const sequence = (index: number) => ({
      name: `scene_${index}`,
      description: `Scene ${index} `.repeat(30),
      groups: [{ id: 'g', calls: [{ tool: 'lamp__set', args: { on: true } }] }],
    });
    // Each write is tried with fresh values until it fails: every success must be really stored,
    // and the failure must be a disk_full StoreError naming the file, with nothing stored.
    const writes: { name: string; attempt: (index: number) => unknown; stored: (index: number) => boolean }[] = [
      {
        name: 'ensureConversation',
        attempt: (index) => stores.conversations.ensureConversation(`c${index}`, `Title ${index} `.repeat(40)),
        stored: (index) => stores.conversations.getConversation(`c${index}`) !== undefined,
      },
      {
        name: 'appendMessage',
        attempt: (index) =>
          stores.conversations.appendMessage('full', { role: 'user', text: `message ${index} `.repeat(40) }),
        stored: (index) =>
          stores.conversations
            .loadMessages('full')
            .some((message) => message.role === 'user' && message.text.startsWith(`message ${index} `)),
      },
      {
        name: 'renameConversation',
        attempt: (index) => stores.conversations.renameConversation('full', `Renamed ${index} `.repeat(40)),
        stored: (index) => stores.conversations.getConversation('full')?.title.startsWith(`Renamed ${index} `) ?? false,
      },
      {
        name: 'settings.set',
        attempt: (index) => stores.settings.set('persona', `persona ${index} `.repeat(40)),
        stored: (index) => stores.settings.get('persona')?.startsWith(`persona ${index} `) ?? false,
      },
      {
        name: 'pluginState.setEnabled',
        attempt: (index) => stores.plugins.setEnabled(`plugin_${index}`, false),
        stored: (index) => !stores.plugins.isEnabled(`plugin_${index}`),
      },
      {
        name: 'sequences.save',
        attempt: (index) => stores.sequences.save(sequence(index)),
        stored: (index) => db.prepare('SELECT 1 FROM sequences WHERE name = ?').get(`scene_${index}`) !== undefined,
      },
    ];
    for (const write of writes) {
      it(`${write.name} either stores its value or throws disk_full, never claims a write it did not make`, async (context) => {
        if (disk === undefined) context.skip(skipReason);
        let thrown: unknown;
        for (let index = 0; index < 2_000 && thrown === undefined; index += 1) {
          try {
            await write.attempt(index);
            expect(write.stored(index), `${write.name} #${index} returned but was not stored`).toBe(true);
          } catch (error) {
            thrown = error;
            expect(write.stored(index), `${write.name} #${index} threw but was stored`).toBe(false);
          }
        }
        expect(thrown).toMatchObject({ name: 'StoreError', kind: 'disk_full', file: file() });
      });
    }

    it('settings.unset either removes the value or throws disk_full with the value kept', (context) => {
      if (disk === undefined) context.skip(skipReason);
      try {
        stores.settings.unset('model');
        expect(stores.settings.get('model')).toBeUndefined();
      } catch (error) {
        expect(error).toMatchObject({ name: 'StoreError', kind: 'disk_full' });
        expect(stores.settings.get('model')).toBe('kept-model');
      }
    });
  });
});

/**
 * The same promise where no file system can be mounted: a file-size limit (`prlimit --fsize`)
 * makes the write-ahead log's writes fail (EFBIG), which SQLite reports as SQLITE_IOERR_WRITE.
 */
describe('the store under a file-size limit (prlimit, runs unprivileged)', () => {
  const hasPrlimit = existsSync('/usr/bin/prlimit');
  it.skipIf(!hasPrlimit)(
    `appendEvent throws a write_failed StoreError and never returns a sequence number that was not journaled${hasPrlimit ? '' : ' (skipped: apt-get install -y util-linux)'}`,
    async () => {
      const folder = new TempStoreFolder();
      try {
        const child = spawn(
          '/usr/bin/prlimit',
          [
            '--fsize=1048576',
            process.execPath,
            '--import',
            'tsx',
            fileURLToPath(new URL('./append-until-write-fails.ts', import.meta.url)),
            folder.file(),
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        expect(stderr).toBe('');
        expect(code).toBe(0);
        const lines = stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { seq?: number; error?: Record<string, string> });
        const returned = lines.flatMap((line) => (line.seq === undefined ? [] : [line.seq]));
        expect(lines.at(-1)?.error).toMatchObject({ name: 'StoreError', kind: 'write_failed', file: folder.file() });
        expect(returned.length).toBeGreaterThan(10);
        const db = folder.own(new Database(folder.file(), { readonly: true }));
        const journaled = db
          .prepare<[], number>("SELECT seq FROM events WHERE conversation_id = 'full' ORDER BY seq")
          .pluck()
          .all();
        expect(journaled).toEqual(returned);
      } finally {
        folder.dispose();
      }
    },
  );
});
