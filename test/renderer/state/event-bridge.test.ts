import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import type { HostAgentEvent } from '../../../host/contract/api-contract.ts';
import type { ApiClient } from '../../../renderer/api/api-client.ts';
import { createWebApiClient } from '../../../renderer/api/web-api-client.ts';
import { createAppStore, type AppState, type AppStore } from '../../../renderer/state/create-app-store.ts';
import { startEventBridge } from '../../../renderer/state/event-bridge.ts';
import type { StorageAreas } from '../../../renderer/state/persisted-keys.ts';
import { skeletonTurn } from '../helpers/agent-events.ts';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { MemoryStorage } from '../helpers/memory-storage.ts';

const WebSocketImpl = NodeWebSocket as unknown as new (url: string) => WebSocket;
const appInfo = {
  version: '0.1.0',
  transport: 'web',
  model: { label: 'Demo model — no AI', scripted: true },
  dataDir: '/tmp/x',
};
const conversation = { id: 'c1', title: 'Lamps', createdAt: 1, updatedAt: 2 };
const disposers: (() => void | Promise<void>)[] = [];
let host: LoopbackHost;

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

async function startHost(journal: () => HostAgentEvent[] | Promise<HostAgentEvent[]>): Promise<LoopbackHost> {
  host = await startLoopbackHost();
  disposers.push(() => host.close());
  host.routes['app/info'] = () => ({ result: appInfo });
  host.routes['conversations/list'] = () => ({ result: { conversations: [conversation] } });
  host.routes['conversations/events'] = async () => ({ result: { events: await journal() } });
  return host;
}

/**
 * A renderer as the page builds it: client, store, bridge; all disposed after the test. `issued`
 * gets each method the window calls, at the moment it calls it (the host sees a request only when
 * it arrives, and requests race one another there).
 */
function startRenderer(storage: StorageAreas, issued?: string[]): AppStore {
  const api: ApiClient = createWebApiClient({ baseUrl: host.baseUrl, token: host.token, WebSocketImpl });
  if (issued) {
    const call = api.call.bind(api);
    api.call = ((method, input) => {
      issued.push(method);
      return call(method, input);
    }) as ApiClient['call'];
  }
  const store = createAppStore({ api, storage });
  const stop = startEventBridge({ api, store });
  disposers.push(() => {
    stop();
    api.dispose();
  });
  return store;
}

function waitFor(store: AppStore, predicate: (state: AppState) => boolean): Promise<AppState> {
  return new Promise((resolve) => {
    if (predicate(store.getState())) return resolve(store.getState());
    const stop = store.subscribe((state) => {
      if (predicate(state)) {
        stop();
        resolve(state);
      }
    });
  });
}

function rememberConversation(id: string): StorageAreas {
  const storage: StorageAreas = { local: new MemoryStorage(), session: new MemoryStorage() };
  storage.local?.setItem('home-agent.last-conversation-id', id);
  return storage;
}

function foldedOf(state: AppState) {
  return {
    turns: state.turns,
    turnOrder: state.turnOrder,
    batches: state.batches,
    batchOrder: state.batchOrder,
    channelOutputs: state.channelOutputs,
  };
}

describe('startEventBridge', () => {
  it('loads the app info and list, reopens the last conversation and folds its journal', async () => {
    await startHost(() => skeletonTurn());
    const store = startRenderer(rememberConversation('c1'));
    const state = await waitFor(store, (current) => current.journalStatus.c1 === 'loaded' && current.appInfo !== null);
    expect(state.appInfo?.model.label).toBe('Demo model — no AI');
    expect(state.conversations.map((entry) => entry.id)).toEqual(['c1']);
    expect(state.turnOrder.c1).toEqual(['t1']);
    expect(state.batches.b1?.calls.map((row) => [row.name, row.ok])).toEqual([
      ['lamp__set', true],
      ['lamp__set', false],
      ['thermometer__read', true],
    ]);
  });

  it('shows a conversation after a host restart exactly as it looked live', async () => {
    const journal: HostAgentEvent[] = [];
    await startHost(() => journal);
    const live = startRenderer(rememberConversation('c1'));
    await waitFor(live, (state) => state.journalStatus.c1 === 'loaded' && state.connection.status === 'open');
    for (const entry of skeletonTurn()) {
      journal.push(entry);
      host.broadcast(entry);
    }
    const liveState = await waitFor(live, (state) => state.turns.t1?.status === 'done');

    const reopened = startRenderer(rememberConversation('c1'));
    const reloaded = await waitFor(reopened, (state) => state.journalStatus.c1 === 'loaded');
    expect(foldedOf(reloaded)).toEqual(foldedOf(liveState));
  });

  it('merges live events that arrive while the journal loads, without duplicates', async () => {
    let answer: (events: HostAgentEvent[]) => void = () => undefined;
    let asked: () => void = () => undefined;
    const journalRequested = new Promise<void>((resolve) => (asked = resolve));
    await startHost(
      () =>
        new Promise((resolve) => {
          answer = resolve;
          asked();
        }),
    );
    const store = startRenderer(rememberConversation('c1'));
    await waitFor(store, (state) => state.journalStatus.c1 === 'loading' && state.connection.status === 'open');
    await host.connections(1);
    const events = skeletonTurn();
    // The host had stored the first 12 events when it answered; the socket delivered 8 … 20.
    for (const entry of events.slice(8)) host.broadcast(entry);
    await journalRequested;
    // Only a socket round trip tells us the broadcasts reached the client: send a marker event of another conversation.
    host.broadcast({ ...events[0]!, conversationId: 'marker', turnId: 'marker' });
    await waitFor(store, (state) => state.turns.marker !== undefined);
    answer(events.slice(0, 12));
    const state = await waitFor(store, (current) => current.journalStatus.c1 === 'loaded');
    expect(state.turns.t1?.items).toEqual([
      { kind: 'assistant', step: 0, text: 'On it.', final: true },
      { kind: 'batch', batchId: 'b1' },
      { kind: 'assistant', step: 1, text: 'Done.', final: true },
    ]);
    expect(state.batches.b1?.calls.map((row) => row.status)).toEqual(['done', 'done', 'done']);
    expect(state.turns.t1?.status).toBe('done');
  });

  it('forgets a remembered conversation the host no longer has', async () => {
    await startHost(() => []);
    const storage = rememberConversation('gone');
    const store = startRenderer(storage);
    await waitFor(store, (state) => state.openConversationId === null);
    expect(storage.local?.getItem('home-agent.last-conversation-id')).toBeNull();
  });

  it('begins a new conversation with an id it mints: no stored empty conversation, no journal reload, one list refresh', async () => {
    await startHost(() => []);
    let sentTo: string | undefined;
    host.routes['chat/send'] = (body) => {
      sentTo = (body as { conversationId?: string }).conversationId;
      return { result: { conversationId: sentTo, turnId: 't-new' } };
    };
    const issued: string[] = [];
    const store = startRenderer({ local: new MemoryStorage(), session: new MemoryStorage() }, issued);
    // The start-up reads of the list (and the one when the link opens after the app info) are done.
    await waitFor(
      store,
      (state) => state.appInfo !== null && state.connection.status === 'open' && state.conversations.length > 0,
    );
    const calledBefore = issued.length;
    store.getState().startNewConversation();
    expect(await store.getState().sendMessage('Lamps on')).toBe(true);
    const minted = store.getState().openConversationId;
    expect(minted).toMatch(/^[0-9a-f-]{36}$/);
    expect(sentTo).toBe(minted);
    // The first turn's events fold in live.
    host.broadcast({
      type: 'turn/start',
      at: 1,
      conversationId: minted!,
      turnId: 't-new',
      text: 'Lamps on',
      model: 'scripted',
    });
    await waitFor(store, (state) => state.turns['t-new'] !== undefined);
    // Once it is folded, all the event led the window to ask has been asked: one read of the list,
    // no conversations/create and no conversations/events.
    expect(issued.slice(calledBefore)).toEqual(['chat/send', 'conversations/list']);
  });
});
