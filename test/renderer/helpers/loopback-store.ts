import { WebSocket as NodeWebSocket } from 'ws';
import { createWebApiClient } from '../../../renderer/api/web-api-client.ts';
import { createAppStore, type AppState, type AppStore } from '../../../renderer/state/create-app-store.ts';
import { startEventBridge } from '../../../renderer/state/event-bridge.ts';
import type { LoopbackHost } from './loopback-host.ts';
import { MemoryStorage } from './memory-storage.ts';

const WebSocketImpl = NodeWebSocket as unknown as new (url: string) => WebSocket;

/** A renderer store on a real web client to `host`; with `bridge`, host events flow in as on the page. */
export function createLoopbackStore(options: { host: LoopbackHost; bridge?: boolean }): {
  store: AppStore;
  dispose(): void;
} {
  const api = createWebApiClient({ baseUrl: options.host.baseUrl, token: options.host.token, WebSocketImpl });
  const store = createAppStore({ api, storage: { local: new MemoryStorage(), session: new MemoryStorage() } });
  const stop = options.bridge ? startEventBridge({ api, store }) : () => undefined;
  return {
    store,
    dispose() {
      stop();
      api.dispose();
    },
  };
}

/** Resolves with the first state (now or later) that satisfies `predicate`. */
export function waitForState(store: AppStore, predicate: (state: AppState) => boolean): Promise<AppState> {
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
