import type { StateCreator } from 'zustand/vanilla';
import type { ApiOutput } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import { messageOf } from './message-of.ts';
import { newestWins } from './newest-wins.ts';

/** What one way-in secret's field last did: storing or removing, or why that failed. */
export type WayInSecretAction =
  { phase: 'busy' } | { phase: 'failed'; message: string } | { phase: 'done'; message: string };

/**
 * Which secrets the host keeps in the OS keychain (never their values: those never reach the window),
 * and the actions that store and remove a way in's secret (a broker password).
 */
export interface SecretsSlice {
  /** Null until read; `available: false` where the front end keeps no secrets (`home-agent serve`). */
  secretsStatus: ApiOutput<'secrets/status'> | null;
  /** By secret name: the last store or remove and what came of it. */
  wayInSecretActions: Record<string, WayInSecretAction>;
  refreshSecrets(): Promise<void>;
  /** Stores `value` in the keychain as way-in secret `name`; the window keeps no copy. */
  keepWayInSecret(name: string, value: string): Promise<boolean>;
  removeWayInSecret(name: string): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createSecretsSlice(api: ApiClient): StateCreator<AppState, [], [], SecretsSlice> {
  const reads = newestWins();
  return (set) => {
    function act(name: string, action: WayInSecretAction): void {
      set((state) => ({ wayInSecretActions: { ...state.wayInSecretActions, [name]: action } }));
    }
    async function refresh(): Promise<void> {
      await reads.run({
        request: () => api.call('secrets/status', {}),
        onAnswer: (status) => set({ secretsStatus: status }),
        // The fields say nothing until the host answers; Settings itself reports a lost host.
        onError: () => undefined,
      });
    }
    return {
      secretsStatus: null,
      wayInSecretActions: {},
      refreshSecrets: refresh,
      async keepWayInSecret(name, value) {
        act(name, { phase: 'busy' });
        try {
          await api.call('secrets/set-way-in-secret', { name, value });
          act(name, { phase: 'done', message: 'Kept in the keychain; used from the next start.' });
          await refresh();
          return true;
        } catch (error) {
          act(name, { phase: 'failed', message: messageOf(error) });
          return false;
        }
      },
      async removeWayInSecret(name) {
        act(name, { phase: 'busy' });
        try {
          const { deleted } = await api.call('secrets/delete-way-in-secret', { name });
          act(name, { phase: 'done', message: deleted ? 'Removed from the keychain.' : 'None was kept.' });
          await refresh();
        } catch (error) {
          act(name, { phase: 'failed', message: messageOf(error) });
        }
      },
    };
  };
}
