import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { askScripted, jsonLines, runCli } from '../../../helpers/run-cli.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-export-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const environment = { HOME_AGENT_NO_OLLAMA_PROBE: '1' };

/** Every file of the data folder with its size, modification time and hash: what a read-only command must leave as it was. */
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

/** Two turns in one conversation through the real CLI: a batch of two calls (one fails), then text. */
async function recordConversation(dataDir: string) {
  const script = path.join(dataDir, '..', `${path.basename(dataDir)}-script.json`);
  writeFileSync(
    script,
    JSON.stringify({
      replies: [
        {
          text: 'Looking.',
          toolCalls: [
            { name: 'system_list_tools', args: {} },
            { name: 'seq_show', args: { name: 'nothing_here' } },
          ],
        },
        { text: 'Done.' },
        { text: 'Second turn.' },
      ],
    }),
  );
  dirs.push(script);
  const ask = (text: string, conversation?: string) =>
    askScripted(
      { script, dataDir, args: conversation ? ['--conversation', conversation] : [], env: environment },
      text,
    );
  const first = await ask('what can you do?');
  expect(first.code).toBe(0);
  const events = jsonLines(first.stdout);
  const conversationId = String(events[0]?.conversationId);
  return { events, conversationId };
}

describe('home-agent export', () => {
  it('writes every conversation with its calls, results and timings as the journal recorded them', async () => {
    const dataDir = tempDir();
    const { events, conversationId } = await recordConversation(dataDir);
    const before = fingerprint(dataDir);
    const result = await runCli(['export', '--data-dir', dataDir], { env: environment });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const exported = JSON.parse(result.stdout) as Record<string, unknown> & {
      conversations: { id: string; turns: { calls: Record<string, unknown>[] }[] }[];
    };
    expect(Object.keys(exported)).toEqual(['format', 'version', 'conversations']);
    expect(exported).toMatchObject({ format: 'home-agent-export', version: 1 });
    const [conversation] = exported.conversations;
    expect(conversation).toMatchObject({ id: conversationId });
    const messages = (conversation as unknown as { messages: { role: string }[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(messages[0]).toEqual({ role: 'user', text: 'what can you do?' });
    // The independent record: the events `ask --json` printed while the turn ran.
    const batch = events.find((event) => event.type === 'batch/start') as {
      batchId: string;
      mode: string;
      step: number;
    };
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(conversation?.turns).toEqual([
      {
        turnId: events[0]?.turnId,
        text: 'what can you do?',
        model: events[0]?.model,
        startedAt: events[0]?.at,
        endedAt: events.at(-1)?.at,
        reason: 'done',
        calls: ends.map((end) => ({
          callId: end.callId,
          name: end.name,
          args: end.name === 'seq_show' ? { name: 'nothing_here' } : {},
          step: batch.step,
          batchId: batch.batchId,
          index: end.index,
          mode: batch.mode,
          ok: end.ok,
          ...(end.result !== undefined ? { result: end.result } : {}),
          ...(end.error !== undefined ? { error: end.error } : {}),
          queuedMs: end.queuedMs,
          runMs: end.runMs,
          startedAt: end.startedAt,
          endedAt: end.endedAt,
          outcome: end.outcome,
        })),
      },
    ]);
    expect(conversation?.turns[0]?.calls.map((call) => call.ok)).toEqual([true, false]);
    // The store is untouched, and nothing appeared beside it (no write-ahead log, no index).
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('writes the same bytes every time (stable), and only the conversation asked for', async () => {
    const dataDir = tempDir();
    const { conversationId } = await recordConversation(dataDir);
    await recordConversation(dataDir);
    const all = await runCli(['export', '--data-dir', dataDir, '--format', 'json'], { env: environment });
    const again = await runCli(['export', '--data-dir', dataDir], { env: environment });
    expect(again.stdout).toBe(all.stdout);
    expect((JSON.parse(all.stdout) as { conversations: unknown[] }).conversations).toHaveLength(2);
    const one = await runCli(['export', '--data-dir', dataDir, '--conversation', conversationId], { env: environment });
    expect(one.code).toBe(0);
    expect((JSON.parse(one.stdout) as { conversations: { id: string }[] }).conversations.map((c) => c.id)).toEqual([
      conversationId,
    ]);
  }, 60_000);

  it('exits 1 naming an unknown conversation, and 2 for a format it does not write', async () => {
    const dataDir = tempDir();
    await recordConversation(dataDir);
    const unknown = await runCli(['export', '--data-dir', dataDir, '--conversation', 'nope'], { env: environment });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no conversation has the id nope');
    const yaml = await runCli(['export', '--data-dir', dataDir, '--format', 'yaml'], { env: environment });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("--format must be json, got 'yaml'");
  });

  it('exits 1 without creating anything when the data folder holds no store', async () => {
    const dataDir = tempDir();
    const result = await runCli(['export', '--data-dir', dataDir], { env: environment });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('home-agent.db');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('keeps the rows it cannot place under "unplaced" and says so on stderr', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    const store = new SqliteConversationStore({ db, now: () => 7 });
    const turn = (conversationId: string, turnId: string, text: string) => {
      const base = { conversationId, turnId, at: 5 };
      store.ensureConversation(conversationId, text);
      store.appendEvent({ ...base, type: 'turn/start', text, model: 'm' });
      store.appendMessage(conversationId, { role: 'user', text });
      store.appendEvent({ ...base, type: 'turn/end', reason: 'done' });
    };
    turn('kept', 't1', 'first');
    turn('kept', 't2', 'second');
    turn('gone', 't3', 'lost');
    // Edited behind the store's back: a turn/start deleted, a conversation deleted with foreign keys off.
    db.prepare("DELETE FROM events WHERE turn_id = 't2' AND type = 'turn/start'").run();
    db.pragma('foreign_keys = OFF');
    db.prepare("DELETE FROM conversations WHERE id = 'gone'").run();
    db.close();

    const result = await runCli(['export', '--data-dir', dataDir], { env: environment });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'home-agent export: 1 message(s) and 3 event(s) belong to no conversation or no turn of one (its row or its turn/start is missing); they are under "unplaced"\n',
    );
    const exported = JSON.parse(result.stdout) as {
      conversations: { id: string; turns: { turnId: string }[] }[];
      unplaced: unknown;
    };
    expect(exported.conversations.map((c) => [c.id, c.turns.map((t) => t.turnId)])).toEqual([['kept', ['t1']]]);
    const at = { at: 5 };
    expect(exported.unplaced).toEqual({
      messages: [{ conversationId: 'gone', seq: 1, message: { role: 'user', text: 'lost' } }],
      events: [
        {
          conversationId: 'gone',
          seq: 1,
          why: 'no_conversation',
          event: { ...at, conversationId: 'gone', turnId: 't3', type: 'turn/start', text: 'lost', model: 'm' },
        },
        {
          conversationId: 'gone',
          seq: 2,
          why: 'no_conversation',
          event: { ...at, conversationId: 'gone', turnId: 't3', type: 'turn/end', reason: 'done' },
        },
        {
          conversationId: 'kept',
          seq: 4,
          why: 'no_turn_start',
          event: { ...at, conversationId: 'kept', turnId: 't2', type: 'turn/end', reason: 'done' },
        },
      ],
    });

    // Asked for by id, the rows of a conversation that is gone are written too.
    const one = await runCli(['export', '--data-dir', dataDir, '--conversation', 'gone'], { env: environment });
    expect(one.code).toBe(0);
    const gone = JSON.parse(one.stdout) as {
      conversations: unknown[];
      unplaced: { messages: unknown[]; events: unknown[] };
    };
    expect(gone.conversations).toEqual([]);
    expect([gone.unplaced.messages.length, gone.unplaced.events.length]).toEqual([1, 2]);
  }, 60_000);

  it('keeps the events of a call no batch/start declares under "unplaced", counted on stderr', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    const store = new SqliteConversationStore({ db, now: () => 7 });
    const base = { conversationId: 'c', turnId: 't1', at: 5 };
    store.ensureConversation('c', 'ran');
    store.appendEvent({ ...base, type: 'turn/start', text: 'go', model: 'm' });
    // The journal refused the batch/start; the call's start and end were journaled.
    store.appendEvent({ ...base, type: 'tool/start', batchId: 'b1', callId: 'call_0', name: 'lamp__set', index: 0 });
    const end = {
      ...base,
      type: 'tool/end' as const,
      batchId: 'b1',
      callId: 'call_0',
      name: 'lamp__set',
      index: 0,
      ok: true,
      outcome: 'done' as const,
      queuedMs: 0,
      runMs: 1,
      startedAt: 5,
      endedAt: 6,
    };
    store.appendEvent(end);
    store.appendEvent({ ...base, type: 'turn/end', reason: 'done' });
    db.close();

    const result = await runCli(['export', '--data-dir', dataDir], { env: environment });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'home-agent export: 2 event(s) of tool calls that no batch/start of their turn declares (the journal did not record what ran); they are under "unplaced"\n',
    );
    const exported = JSON.parse(result.stdout) as { unplaced: { events: unknown[] } };
    expect(exported.unplaced.events).toEqual([
      {
        conversationId: 'c',
        seq: 2,
        why: 'no_batch_start',
        event: { ...base, type: 'tool/start', batchId: 'b1', callId: 'call_0', name: 'lamp__set', index: 0 },
      },
      { conversationId: 'c', seq: 3, why: 'no_batch_start', event: end },
    ]);
  }, 60_000);
});
