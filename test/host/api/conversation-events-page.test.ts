import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { dispatchApiCall } from '../../../host/api/dispatch-api-call.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openHost(): Promise<Host> {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-pages-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const host = await createHost({
    dataDir: dir,
    transport: 'web',
    model: new ScriptedModel({ replies: [] }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

/** Turn n of conversation c: 6 events, with one batch in every turn but the first (hand-written). */
function turn(n: number): AgentEvent[] {
  const where = { conversationId: 'c', turnId: `t${n}` };
  const batch: AgentEvent[] =
    n === 1
      ? []
      : [
          { ...where, at: n, type: 'batch/open', batchId: `b${n}`, step: 1 },
          {
            ...where,
            at: n,
            type: 'batch/start',
            batchId: `b${n}`,
            step: 1,
            mode: 'serial',
            reason: 'serial: a single call',
            calls: [],
          },
          { ...where, at: n, type: 'batch/end', batchId: `b${n}`, wallMs: 1, executed: 0 },
        ];
  return [
    { ...where, at: n, type: 'turn/start', text: `turn ${n}`, model: 'm' },
    ...batch,
    { ...where, at: n, type: 'turn/end', reason: 'done' },
    ...(n === 1 ? [{ ...where, at: n, type: 'agent/error', message: 'x' } as AgentEvent] : []),
  ];
}

type Page = { events: AgentEvent[]; page?: { before?: number; batchesBefore: number } };

describe('conversations/events in pages', () => {
  it('returns whole turns, newest first page, with the cursor to the older page and the batches before it', async () => {
    const host = await openHost();
    host.store.ensureConversation('c', 'paged');
    const journal = [1, 2, 3, 4, 5].flatMap(turn);
    for (const event of journal) host.store.appendEvent(event);
    const read = async (input: object): Promise<Page> =>
      (await dispatchApiCall(host.handlers, 'conversations/events', { conversationId: 'c', ...input })) as Page;
    const turnsOf = (page: Page) => [...new Set(page.events.map((event) => event.turnId))];

    // Without a page, the whole journal, as scripts expect.
    expect(await read({})).toEqual({ events: journal });

    const newest = await read({ page: { turns: 2 } });
    expect(turnsOf(newest)).toEqual(['t4', 't5']);
    expect(newest.events).toEqual(journal.slice(3 + 5 + 5)); // turn 1 has 3 events, turns 2 and 3 have 5
    // Turns 2 and 3 each hold one batch before this page; turn 4 starts at seq 14.
    expect(newest.page).toEqual({ before: 14, batchesBefore: 2 });

    const older = await read({ page: { turns: 2, before: newest.page!.before } });
    expect(turnsOf(older)).toEqual(['t2', 't3']);
    expect(older.page).toEqual({ before: 4, batchesBefore: 0 });

    const oldest = await read({ page: { turns: 2, before: older.page!.before } });
    expect(turnsOf(oldest)).toEqual(['t1']);
    expect(oldest.events).toEqual(journal.slice(0, 3));
    expect(oldest.page).toEqual({ batchesBefore: 0 });
  });

  it('refuses a page of no turns, naming the field', async () => {
    const host = await openHost();
    await expect(
      dispatchApiCall(host.handlers, 'conversations/events', { conversationId: 'c', page: { turns: 0 } }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
