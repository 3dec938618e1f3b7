import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import { createToolApi } from '../../../core/batch/create-tool-api.ts';
import type { ArgumentBounds } from '../../../core/tools/argument-bounds.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { runCallTurn } from '../../../host/front/mcp/run-call-turn.ts';
import { exportConversations } from '../../../host/store/export-conversations.ts';
import { findUnplacedRows } from '../../../host/store/orphaned-rows.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { verifyStore } from '../../../host/store/verify-store.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

const folders: TempStoreFolder[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.dispose();
});

/** `{"a":{"a":…1…}}` as a value, built with a loop (a recursive builder would overflow first). */
function nestedObjects(depth: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value as Record<string, unknown>;
}

/**
 * The MCP server's way in over a real SQLite journal, wired as the host wires it: one bound given
 * to the journal's bus and to the ToolAPI, the call run as its own turn (runCallTurn).
 */
function mcpHome() {
  const folder = new TempStoreFolder();
  folders.push(folder);
  const db = folder.own(openDatabase({ file: folder.file() }));
  const store = new SqliteConversationStore({ db });
  const argumentBounds = (): ArgumentBounds => ({ maxBytes: 65_536 });
  const events = new AgentEvents({ journal: store, argumentBounds });
  const broadcast: string[] = [];
  // The web socket writes every event as JSON: a value it cannot write never reaches the window.
  events.subscribe((event) => broadcast.push(JSON.stringify(event)));
  const ran: unknown[] = [];
  const lamp: ToolDefinition = {
    name: 'lamp__set',
    description: 'lamp',
    parameters: { type: 'object', properties: {} },
    handler: (args) => void ran.push(args),
  };
  const toolApi = createToolApi({ tools: () => [lamp], pipeline: { argumentBounds } });
  let turns = 0;
  const call = (name: string, args: Record<string, unknown>) =>
    runCallTurn({
      turnId: `turn-${(turns += 1)}`,
      toolApi,
      events,
      ensureConversation: (id, title) => store.ensureConversation(id, title),
      conversation: { id: 'mcp', title: 'MCP: test', clientName: 'test' },
      name,
      args,
      signal: new AbortController().signal,
    });
  const journal = (): AgentEvent[] => store.loadEvents('mcp');
  return { db, store, call, ran, broadcast, journal };
}

describe('an MCP call runs only with arguments the journal holds', () => {
  for (const depth of [300, 60_000]) {
    it(`refuses arguments nested ${depth.toLocaleString('en-US')} deep before they run, journaling a bounded stand-in the window sees`, async () => {
      const home = mcpHome();
      const run = await home.call('lamp__set', nestedObjects(depth));
      expect(home.ran).toEqual([]);
      expect(run).toMatchObject({
        callOutcome: 'not_sent',
        outcome: {
          ok: false,
          error: {
            reason: 'invalid_json',
            detail: 'lamp__set: the arguments are nested more than 64 levels deep; at most 64 are allowed',
          },
        },
      });
      const declared = home.journal().find((event) => event.type === 'batch/start');
      expect(declared).toMatchObject({
        calls: [
          {
            name: 'lamp__set',
            args: {
              $notKept: 'the arguments are nested more than 64 levels deep; at most 64 are allowed',
              $preview: expect.stringMatching(/^\{"a":\{"a":/),
            },
          },
        ],
      });
      expect(home.broadcast.some((line) => line.includes('"type":"batch/start"'))).toBe(true);
      // export shows the call with its answer, and verify holds: the journal has the whole turn.
      const exported = exportConversations({ store: home.store, unplaced: findUnplacedRows({ db: home.db }) });
      expect(exported.unplaced).toBeUndefined();
      expect(exported.conversations[0]!.turns[0]!.calls).toMatchObject([
        { name: 'lamp__set', outcome: 'not_sent', error: { reason: 'invalid_json' } },
      ]);
      expect((await verifyStore({ db: home.db, store: home.store })).ok).toBe(true);
    });
  }

  it('keeps 250 KB arguments of an unknown tool out of the journal: 20 calls add under 40 KB', async () => {
    const home = mcpHome();
    for (let call = 0; call < 20; call += 1) {
      const run = await home.call('no_such_tool', { blob: 'x'.repeat(250_000) });
      // The MCP conformance scenario tools-call-error: an unknown tool is still an answer with text.
      expect(run.outcome).toMatchObject({ ok: false, error: { reason: 'not_found' } });
    }
    const journaled = home.db.prepare<[], number>('SELECT sum(length(payload)) FROM events').pluck().get()!;
    expect(journaled).toBeLessThan(40_000);
    expect(home.journal().filter((event) => event.type === 'batch/start')).toHaveLength(20);
  });

  it('runs arguments within both bounds as they came, and journals them whole', async () => {
    const home = mcpHome();
    const args = { brightness: 40, note: 'x'.repeat(60_000) };
    const run = await home.call('lamp__set', args);
    expect(run.callOutcome).toBe('done');
    expect(home.ran).toEqual([args]);
    expect(home.journal().find((event) => event.type === 'batch/start')).toMatchObject({ calls: [{ args }] });
  });
});

describe('an MCP call whose start the journal refuses', () => {
  for (const type of ['batch/start', 'tool/start'] as const) {
    it(`never runs when its ${type} cannot be journaled, and answers not_sent`, async () => {
      const home = mcpHome();
      home.db.exec(
        `CREATE TRIGGER refuse_start BEFORE INSERT ON events WHEN NEW.type = '${type}'
         BEGIN SELECT RAISE(ABORT, 'the test refuses ${type}'); END`,
      );
      const run = await home.call('lamp__set', { on: true });
      expect(home.ran).toEqual([]);
      expect(run).toMatchObject({
        callOutcome: 'not_sent',
        outcome: {
          ok: false,
          error: {
            detail: `lamp__set did not run: the journal could not record its ${type}, and nothing may happen in the home that is not recorded.`,
          },
        },
      });
    });
  }
});
