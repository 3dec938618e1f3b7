import type { HomeAgentBridge } from '../../host/contract/api-contract.ts';
import { readPersisted, writePersisted, type StorageAreas } from '../state/persisted-keys.ts';
import type { ApiClient } from './api-client.ts';
import { createElectronApiClient } from './electron-api-client.ts';
import { createWebApiClient } from './web-api-client.ts';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser. */
    homeAgent?: HomeAgentBridge;
  }
}

/** The client for this page: the preload's bridge under Electron, else HTTP + WebSocket to the serving host. */
export function createApiClient(storage: StorageAreas): ApiClient {
  if (window.homeAgent) return createElectronApiClient(window.homeAgent);
  return createWebApiClient({ baseUrl: window.location.origin, token: takeToken(storage) ?? '' });
}

/**
 * The web token: taken from `#token=…` when the address carries one (then kept for this origin and
 * removed from the address bar so it is not shared along with a copied link), else the one kept.
 */
export function takeToken(storage: StorageAreas): string | undefined {
  const fromHash = tokenFromHash(window.location.hash);
  if (fromHash !== undefined) {
    writePersisted(storage, 'token', fromHash);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  return readPersisted(storage, 'token');
}

/** Pure: the token in a `#token=…` fragment, if any. */
export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token ? token : undefined;
}
