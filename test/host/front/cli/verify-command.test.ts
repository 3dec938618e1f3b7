import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PassThrough } from 'node:stream';
import { createHost } from '../../../../host/app/create-host.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { migrations } from '../../../../host/store/migrations.ts';
import { runMigrations } from '../../../../host/store/run-migrations.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';
import { runVerifyCommand } from '../../../../host/front/cli/commands/verify-command.ts';
import type { VerifyReport } from '../../../../host/store/verify-store.ts';
import { repairInterruptedTurns } from '../../../../host/app/repair-interrupted-turns.ts';
import { ScriptedModel } from '../../../../core/models/scripted/scripted-model.ts';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { runCli } from '../../../helpers/run-cli.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-verify-'));
  dirs.push(dir);
  return dir;
}

/** Two turns of two steps each in one conversation: a chat send, then text. */
async function recordTurns(dataDir: string): Promise<void> {
  const model = new ScriptedModel({
    replies: [
      { toolCalls: [{ name: 'output_send__chat', args: { text: 'hello' } }] },
      { text: 'Sent.' },
      { toolCalls: [{ name: 'output_send__notifications', args: { text: 'again' } }] },
      { text: 'Sent again.' },
    ],
  });
  const host = await createHost({ dataDir, transport: 'cli', model, log: () => {}, version: 'test' });
  try {
    for (const text of ['say hello', 'and again'])
      expect(await host.agent.runTurn({ conversationId: 'c1', text })).toMatchObject({ reason: 'done' });
  } finally {
    await host.dispose();
  }
}

/**
 * Six turns in a window of 3,000 tokens, each reading a note of 3,000 bytes (a result over 2 KiB):
 * later requests shorten older results and leave out the oldest turns.
 */
async function recordFittedTurns(dataDir: string): Promise<Extract<AgentEvent, { type: 'request/header' }>[]> {
  const replies = [];
  for (let turn = 0; turn < 6; turn += 1)
    replies.push({ toolCalls: [{ name: 'notes__read', args: {} }] }, { text: `Read ${turn}.` });
  const host = await createHost({
    dataDir,
    transport: 'cli',
    model: new ScriptedModel({ replies }),
    settings: { contextTokens: 3000 },
    log: () => {},
    version: 'test',
  });
  host.plugins.register({
    name: 'notes',
    description: 'notes',
    tools: () => [
      {
        name: 'notes__read',
        description: 'Read the note.',
        parameters: { type: 'object' },
        handler: () => 'n'.repeat(3000),
      },
    ],
  });
  try {
    for (let turn = 0; turn < 6; turn += 1)
      expect(await host.agent.runTurn({ conversationId: 'c1', text: `read the note (${turn})` })).toMatchObject({
        reason: 'done',
      });
    return host.store.loadRequestHeaders('c1');
  } finally {
    await host.dispose();
  }
}

async function verify(dataDir: string): Promise<{ code: number; stdout: string; report: VerifyReport }> {
  const run = async (json: boolean) => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const code = await runVerifyCommand(['--data-dir', dataDir, ...(json ? ['--json'] : [])], {
      stdout,
      stderr: new PassThrough(),
      signal: new AbortController().signal,
    });
    return { code, text };
  };
  const people = await run(false);
  const machine = await run(true);
  expect(machine.code).toBe(people.code);
  return { code: people.code, stdout: people.text, report: JSON.parse(machine.text) as VerifyReport };
}

/** Opens the store file directly, to damage it as a bug or an intruder would. */
function raw(dataDir: string): Database.Database {
  return new Database(databaseFileOf(dataDir));
}

/** Every file of the data folder with its hash: a read-only command changes none and creates none (no log, no index). */
function fingerprint(dataDir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dataDir)
      .sort()
      .map((name): [string, string] => [
        name,
        createHash('sha256')
          .update(readFileSync(path.join(dataDir, name)))
          .digest('hex'),
      ]),
  );
}

describe('home-agent verify', () => {
  it('passes a store the agent wrote, rebuilding every step, and writes nothing', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const before = fingerprint(dataDir);
    const { code, stdout, report } = await verify(dataDir);
    expect(code).toBe(0);
    expect(report.steps).toEqual({ verified: 4, unverifiable: 0, mismatched: [] });
    expect(report).toMatchObject({ foreignKeys: [], turnsWithoutStart: [], journalGaps: [] });
    expect(stdout).toContain('request headers: 4 step(s) rebuilt, 0 unverifiable');
    expect(stdout).toContain('ok      foreign_key_check');
    expect(stdout).toContain('ok      every turn in the journal has its turn/start');
    expect(stdout).toContain('ok      every message is in the journal');
    expect(stdout).toContain('All checks hold.');
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('exits 0 through the real command line too, and 1 for a data folder without a store', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    expect((await runCli(['verify', '--data-dir', dataDir])).code).toBe(0);
    const empty = await runCli(['verify', '--data-dir', tempDir()]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('does not exist');
  });

  it('names every step whose stored system prompt no longer hashes to its header', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    db.prepare("UPDATE request_parts SET body = body || ' (edited)' WHERE kind = 'system'").run();
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.steps.mismatched).toHaveLength(4);
    expect(report.steps.mismatched[0]!.differences[0]).toMatch(
      /^the stored system prompt hashes to [0-9a-f]{12}, the header says [0-9a-f]{12}$/,
    );
    expect(stdout).toContain('FAILED  request headers: 4 step(s) do not rebuild');
  });

  it('names the steps after a message that was changed, and only those', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    // Message 5 is the second turn's user message: the first turn's two steps never carried it.
    const changed = db
      .prepare(
        "UPDATE messages SET payload = json_set(payload, '$.text', 'something else') WHERE conversation_id = 'c1' AND seq = 5 AND role = 'user'",
      )
      .run();
    expect(changed.changes).toBe(1);
    db.close();
    const { code, report } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.steps.verified).toBe(2);
    expect(report.steps.mismatched.map((step) => step.step)).toEqual([1, 2]);
    expect(report.steps.mismatched[0]!.differences).toEqual([
      expect.stringMatching(/^the messages through #5 hash to [0-9a-f]{12}, the header says [0-9a-f]{12}$/),
      expect.stringMatching(/^the request rebuilds to [0-9a-f]{12}, the header says [0-9a-f]{12}$/),
    ]);
  });

  it('names a step whose recorded tool list is not what its declarations were', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    db.prepare(
      "UPDATE events SET payload = json_set(payload, '$.tools', json('[\"output_send__chat\"]')) WHERE seq = (SELECT MIN(seq) FROM events WHERE type = 'request/header')",
    ).run();
    db.close();
    const { code, report } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.steps.mismatched).toHaveLength(1);
    expect(report.steps.mismatched[0]!.differences).toEqual([
      'the tool list differs: the header says [output_send__chat], the stored declarations give [output_list_channels, output_send__chat, output_send__notifications, seq_check, seq_delete, seq_list, seq_run, seq_save, seq_show, system_list_tools]',
    ]);
  });

  it('rebuilds each fitted request as it was sent: earlier turns left out, older results shortened', async () => {
    const dataDir = tempDir();
    const headers = await recordFittedTurns(dataDir);
    expect(headers.some((header) => (header.omittedTurns ?? 0) > 0)).toBe(true);
    expect(headers.some((header) => (header.shortenedResults ?? 0) > 0)).toBe(true);
    const { code, report } = await verify(dataDir);
    expect(code).toBe(0);
    expect(report.steps).toEqual({ verified: 12, unverifiable: 0, mismatched: [] });
    // A change to the first turn fails only the steps that sent it, not those that left it out.
    const db = raw(dataDir);
    db.prepare(
      "UPDATE messages SET payload = json_set(payload, '$.text', 'something else') WHERE conversation_id = 'c1' AND seq = 1",
    ).run();
    db.close();
    const sentFirst = headers.filter((header) => (header.omittedTurns ?? 0) === 0).length;
    const changed = await verify(dataDir);
    expect(changed.code).toBe(1);
    expect(changed.report.steps.mismatched).toHaveLength(sentFirst);
    expect(changed.report.steps.verified).toBe(12 - sentFirst);
    expect(sentFirst).toBeLessThan(12);
  });

  it('reports steps recorded before headers named their parts as unverifiable, not failed', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    db.prepare(
      "UPDATE events SET payload = json_remove(payload, '$.toolsHash', '$.messagesHash', '$.messageSeq') WHERE type = 'request/header'",
    ).run();
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(0);
    expect(report.steps).toEqual({ verified: 0, unverifiable: 4, mismatched: [] });
    expect(stdout).toContain('0 step(s) rebuilt, 4 unverifiable');
  });

  it('reads a store of an older schema, whose steps are all unverifiable', async () => {
    const dataDir = tempDir();
    const file = databaseFileOf(dataDir);
    const old = new Database(file);
    runMigrations({ db: old, file, migrations: migrations.slice(0, 6) });
    const store = new SqliteConversationStore({ db: old });
    store.ensureConversation('c1', 'old');
    store.appendMessage('c1', { role: 'user', text: 'hi' });
    const base = { conversationId: 'c1', turnId: 't1', at: 1 };
    store.appendEvent({ ...base, type: 'turn/start', text: 'hi', model: 'm' });
    store.appendEvent({ ...base, type: 'request/header', step: 1, tools: [], systemPromptHash: 'a', requestHash: 'b' });
    store.appendEvent({ ...base, type: 'turn/end', reason: 'done' });
    old.close();
    const { code, report } = await verify(dataDir);
    expect(code).toBe(0);
    expect(report.steps).toEqual({ verified: 0, unverifiable: 1, mismatched: [] });
  });

  it('fails on a turn without an end and on a tool call without an answer, naming them', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    const store = new SqliteConversationStore({ db });
    store.ensureConversation('c1', 'killed');
    store.appendMessage('c1', { role: 'user', text: 'lamps' });
    store.appendMessage('c1', {
      role: 'assistant',
      text: '',
      toolCalls: [
        { id: 'k1', name: 'lamp__set', args: {} },
        { id: 'k2', name: 'lamp__set', args: {} },
      ],
    });
    store.appendMessage('c1', { role: 'tool', toolCallId: 'k1', toolName: 'lamp__set', content: '{}', isError: false });
    store.appendMessage('c1', { role: 'tool', toolCallId: 'k1', toolName: 'lamp__set', content: '{}', isError: false });
    store.appendEvent({ conversationId: 'c1', turnId: 't9', at: 1, type: 'turn/start', text: 'lamps', model: 'm' });
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.openTurns).toEqual([{ conversationId: 'c1', turnId: 't9' }]);
    expect(report.unansweredCalls).toEqual([
      { conversationId: 'c1', position: 3, callId: 'k1', problem: 'answered_twice' },
      { conversationId: 'c1', position: 1, callId: 'k2', problem: 'unanswered' },
    ]);
    expect(stdout).toContain('FAILED  1 turn(s) have no end');
    expect(stdout).toContain('conversation c1, message 2: k2 unanswered');
  });

  it('fails on a wiped journal, naming every message no event records', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    db.prepare('DELETE FROM events').run();
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(1);
    // Two turns of four messages each: the person's, the call, its result, the closing text.
    const gap = (seq: number, role: string, detail: string) => ({ conversationId: 'c1', seq, role, detail });
    const turn = (first: number) => [
      gap(first, 'user', 'no turn/start records it'),
      gap(first + 1, 'assistant', 'its turn has no turn/start'),
      gap(first + 2, 'tool', 'its turn has no turn/start'),
      gap(first + 3, 'assistant', 'its turn has no turn/start'),
    ];
    expect(report.journalGaps).toEqual([...turn(1), ...turn(5)]);
    expect(stdout).toContain('FAILED  journal gaps: 8 message(s) that no journal event records:');
    expect(stdout).toContain('conversation c1, message #1 (user): no turn/start records it');
    expect(stdout).toContain('conversation c1, messages #2–#4: its turn has no turn/start');
    expect(stdout).toContain('Some checks failed.');
  });

  it('fails when a turn/start or a turn/end was deleted, naming the turn', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    const [first, second] = db
      .prepare<[], string>("SELECT turn_id FROM events WHERE type = 'turn/start' ORDER BY seq")
      .pluck()
      .all();
    db.prepare("DELETE FROM events WHERE type = 'turn/end' AND turn_id = ?").run(first);
    db.prepare("DELETE FROM events WHERE type = 'turn/start' AND turn_id = ?").run(second);
    const left = db.prepare('SELECT count(*) FROM events WHERE turn_id = ?').pluck().get(second) as number;
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.openTurns).toEqual([{ conversationId: 'c1', turnId: first }]);
    expect(report.turnsWithoutStart).toEqual([{ conversationId: 'c1', turnId: second, events: left }]);
    expect(report.journalGaps.map((gap) => gap.seq)).toEqual([5, 6, 7, 8]);
    expect(stdout).toContain('FAILED  1 turn(s) in the journal have no turn/start');
    expect(stdout).toContain(`conversation c1, turn ${second}: ${left} event(s)`);
  });

  it('fails on a call whose batch/start the journal lacks, naming its events', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    // As when the journal refused the batch/start and the call ran anyway.
    const [turnId, callId] = db
      .prepare<[], { turnId: string; callId: string }>(
        "SELECT turn_id AS turnId, json_extract(payload, '$.callId') AS callId FROM events WHERE type = 'tool/end' ORDER BY seq LIMIT 1",
      )
      .all()
      .map((row) => [row.turnId, row.callId])[0]!;
    db.prepare("DELETE FROM events WHERE type = 'batch/start' AND turn_id = ?").run(turnId);
    const seqs = db
      .prepare<[string], number>(
        "SELECT seq FROM events WHERE turn_id = ? AND type IN ('tool/start', 'tool/end') ORDER BY seq",
      )
      .pluck()
      .all(turnId!);
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.unplacedEvents.map((event) => [event.seq, event.type, event.callId, event.why])).toEqual([
      [seqs[0], 'tool/start', callId, 'no_batch_start'],
      [seqs[1], 'tool/end', callId, 'no_batch_start'],
    ]);
    expect(stdout).toContain('FAILED  2 event(s) export cannot place (under "unplaced"):');
    expect(stdout).toContain(
      `conversation c1, event #${seqs[1]} tool/end of call ${callId} (output_send__chat), turn ${turnId}: no batch/start of its turn declares the call (what ran is not in the journal)`,
    );
  });

  it('fails on the messages of a conversation deleted behind its back (foreign_key_check)', async () => {
    const dataDir = tempDir();
    await recordTurns(dataDir);
    const db = raw(dataDir);
    db.pragma('foreign_keys = OFF');
    expect(db.prepare("DELETE FROM conversations WHERE id = 'c1'").run().changes).toBe(1);
    db.close();
    const { code, report, stdout } = await verify(dataDir);
    expect(code).toBe(1);
    expect(report.foreignKeys).toEqual([
      { table: 'messages', parent: 'conversations', key: { conversation_id: 'c1' }, rows: 8 },
    ]);
    expect(stdout).toContain('FAILED  foreign_key_check: 8 row(s) name a row that does not exist:');
    expect(stdout).toContain('8 row(s) of messages name conversations conversation_id=c1');
  });

  it('counts the answers the start-up repair wrote as journaled', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    const store = new SqliteConversationStore({ db });
    const calls = [
      { id: 'k1', name: 'lamp__set', args: {} },
      { id: 'k2', name: 'lamp__set', args: {} },
    ];
    for (const [conversationId, batched] of [
      ['before-batch', false],
      ['in-batch', true],
    ] as const) {
      const base = { conversationId, turnId: `${conversationId}-turn`, at: 1 };
      store.ensureConversation(conversationId, 'killed');
      store.appendEvent({ ...base, type: 'turn/start', text: 'lamps on', model: 'm' });
      store.appendMessage(conversationId, { role: 'user', text: 'lamps on' });
      store.appendEvent({ ...base, type: 'step/start', step: 1 });
      store.appendEvent({ ...base, type: 'message/assistant', step: 1, text: '', toolCalls: calls });
      store.appendMessage(conversationId, { role: 'assistant', text: '', toolCalls: calls });
      // Killed before the batch started, or while its first call ran.
      if (batched) {
        const batch = { ...base, batchId: 'b1' };
        store.appendEvent({
          ...batch,
          type: 'batch/start',
          step: 1,
          mode: 'serial',
          reason: 'serial: lamp__set declares serial',
          calls: calls.map((call, index) => ({ index, callId: call.id, name: call.name, args: {} })),
        });
        store.appendEvent({ ...batch, type: 'tool/start', callId: 'k1', name: 'lamp__set', index: 0 });
      }
    }
    expect(repairInterruptedTurns(store)).toEqual({ turns: 2, calls: 4 });
    db.close();
    const { code, report } = await verify(dataDir);
    expect(report.journalGaps).toEqual([]);
    expect(report.unansweredCalls).toEqual([]);
    expect(code).toBe(0);
  });
});
