import { afterEach, describe, expect, it } from 'vitest';
import type { HostAgentEvent } from '../../../host/contract/api-contract.ts';
import { event } from '../helpers/agent-events.ts';
import { startLoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

/** A finished turn of conversation c1 with nothing but its message. */
function turn(turnId: string, at: number): HostAgentEvent[] {
  return [
    event({ type: 'turn/start', turnId, at, text: `Turn ${turnId}`, model: 'scripted' }),
    event({ type: 'turn/end', turnId, at: at + 1, reason: 'done' }),
  ];
}

describe('a journal read in pages', () => {
  it('keeps where the next older page ends, and forgets it once a page reaches the start', async () => {
    const host = await startLoopbackHost();
    disposers.push(() => host.close());
    // The older page (before sequence 5) is the journal's start: it names no page before it.
    host.routes['conversations/events'] = () => ({ result: { events: turn('t1', 1000), page: { batchesBefore: 0 } } });
    const renderer = createLoopbackStore({ host });
    disposers.push(() => renderer.dispose());
    const { store } = renderer;

    store.getState().replaceConversationEvents('c1', turn('t2', 2000), { batchesBefore: 0, before: 5 });
    expect(store.getState().journalBefore).toEqual({ c1: 5 });
    expect(store.getState().journalStatus).toEqual({ c1: 'loaded' });

    await store.getState().loadOlderEvents('c1');
    expect(host.requests.get('conversations/events')).toEqual([
      { conversationId: 'c1', page: { turns: 40, before: 5 } },
    ]);
    expect(store.getState().turnOrder.c1).toEqual(['t1', 't2']);
    expect(store.getState().journalBefore).toEqual({});

    // Read again whole (no page): nothing older is left to read.
    store.getState().replaceConversationEvents('c1', turn('t2', 2000), { batchesBefore: 0, before: 5 });
    store.getState().replaceConversationEvents('c1', [...turn('t1', 1000), ...turn('t2', 2000)]);
    expect(store.getState().journalBefore).toEqual({});
    expect(store.getState().turnOrder.c1).toEqual(['t1', 't2']);
  });
});
