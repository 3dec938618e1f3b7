import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';
import { runCli } from '../../../helpers/run-cli.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const environment = { HOME_AGENT_NO_OLLAMA_PROBE: '1' };

function dataFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-read-only-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file of the folder with its size, modification time and hash: what a read-only command must leave as it was. */
function fingerprint(dataDir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dataDir)
      .sort()
      .map((name) => {
        const file = path.join(dataDir, name);
        const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
        return [name, `${statSync(file).size} ${statSync(file).mtimeMs} ${hash}`];
      }),
  );
}

/** One closed turn in conversation `id`, plus an assistant call nobody answered (verify names it). */
function writeConversation(store: SqliteConversationStore, id: string): void {
  store.ensureConversation(id, `Conversation ${id}`);
  const base = { conversationId: id, turnId: `${id}-turn`, at: 1 };
  store.appendEvent({ ...base, type: 'turn/start', text: 'lamps', model: 'm' });
  store.appendMessage(id, { role: 'user', text: 'lamps' });
  const call = { id: `${id}-call`, name: 'lamp__set', args: {} };
  store.appendEvent({ ...base, type: 'message/assistant', step: 1, text: '', toolCalls: [call] });
  store.appendMessage(id, { role: 'assistant', text: '', toolCalls: [call] });
  store.appendEvent({ ...base, type: 'turn/end', reason: 'done' });
}

async function readBoth(dataDir: string) {
  const exported = await runCli(['export', '--data-dir', dataDir], { env: environment });
  expect(exported.stderr).toBe('');
  expect(exported.code).toBe(0);
  const verified = await runCli(['verify', '--json', '--data-dir', dataDir], { env: environment });
  const report = JSON.parse(verified.stdout) as { unansweredCalls: { callId: string }[] };
  return {
    conversations: (JSON.parse(exported.stdout) as { conversations: { id: string }[] }).conversations.map((c) => c.id),
    unanswered: report.unansweredCalls.map((problem) => problem.callId),
  };
}

describe('verify and export read the store read-only', () => {
  it('create no file at all in a data folder whose store is closed (no -wal, no -shm)', async () => {
    const dataDir = dataFolder();
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    writeConversation(new SqliteConversationStore({ db }), 'closed');
    db.close();
    const before = fingerprint(dataDir);
    expect(Object.keys(before)).toEqual(['home-agent.db']);
    expect(await readBoth(dataDir)).toEqual({ conversations: ['closed'], unanswered: ['closed-call'] });
    expect(fingerprint(dataDir)).toEqual(before);
  }, 30_000);

  it('see the rows a live writer committed to its write-ahead log, and add no file', async () => {
    const dataDir = dataFolder();
    const file = databaseFileOf(dataDir);
    const writer = openDatabase({ file });
    cleanups.push(() => writer.close());
    const store = new SqliteConversationStore({ db: writer });
    writeConversation(store, 'first');
    writer.pragma('wal_checkpoint(TRUNCATE)');
    writeConversation(store, 'live');
    // The live rows are in the write-ahead log only: the database file alone does not hold them.
    const image = readFileSync(file);
    image[18] = 1;
    image[19] = 1;
    const fileAlone = new Database(image, { readonly: true });
    expect(fileAlone.prepare('SELECT id FROM conversations').pluck().all()).toEqual(['first']);
    fileAlone.close();
    const names = readdirSync(dataDir).sort();
    expect(names).toEqual(['home-agent.db', 'home-agent.db-shm', 'home-agent.db-wal']);
    expect(await readBoth(dataDir)).toEqual({
      conversations: ['first', 'live'],
      unanswered: ['first-call', 'live-call'],
    });
    expect(readdirSync(dataDir).sort()).toEqual(names);
  }, 30_000);
});
