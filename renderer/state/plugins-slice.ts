import type { StateCreator } from 'zustand/vanilla';
import type { ApiOutput } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';
import type { LoadStatus } from './load-status.ts';
import { newestWins } from './newest-wins.ts';
import {
  idlePluginToggle,
  nextPluginToggle,
  pluginToggleRequest,
  type PluginToggleFlow,
  type PluginToggleInput,
} from './plugin-toggle-flow.ts';

/** One plugin as the host lists it. */
export type PluginSummary = ApiOutput<'plugins/list'>['plugins'][number];

/** The host's plugins, and the one enable/disable in progress (with the host's warning, when it gave one). */
export interface PluginsSlice {
  plugins: PluginSummary[];
  /** The host's warning that the enabled plugins' tool declarations take over half the model's context window. */
  pluginsContextWarning: string | undefined;
  pluginsStatus: LoadStatus;
  pluginsError: string | null;
  pluginToggle: PluginToggleFlow;
  /** Problems of the MCP config the host reported (an unreadable file, a refused server). */
  pluginProblems: string[];
  /** The MCP server whose trust is being changed, and the last such change that failed. */
  pluginTrust: { pending?: string; error?: { name: string; message: string } };
  refreshPlugins(): Promise<void>;
  /** Trusts an MCP server's plugin, or takes the trust back; the list is read again after. */
  setPluginTrusted(name: string, trusted: boolean): Promise<void>;
  /** Asks the host to enable or disable a plugin; a warning it answers with waits for confirm or cancel. */
  setPluginEnabled(name: string, enabled: boolean): Promise<void>;
  /** Sends the warned-about change again with `confirm: true`. */
  confirmPluginWarning(): Promise<void>;
  /** Drops the warned-about change; nothing is sent. */
  cancelPluginWarning(): void;
}

/** The slice, with the API its actions call. */
export function createPluginsSlice(api: ApiClient): StateCreator<AppState, [], [], PluginsSlice> {
  const lookUps = newestWins();
  return (set, get) => {
    function step(input: PluginToggleInput): void {
      set({ pluginToggle: nextPluginToggle(get().pluginToggle, input) });
    }

    /** Makes the request of a flow that just entered `sending`, and feeds the answer back. */
    async function send(): Promise<void> {
      const request = pluginToggleRequest(get().pluginToggle);
      if (!request) return;
      try {
        const answer = await api.call('plugins/set-enabled', request);
        if (answer.applied) {
          set((state) => ({
            plugins: state.plugins.map((plugin) =>
              plugin.name === request.name ? { ...plugin, enabled: request.enabled } : plugin,
            ),
          }));
        }
        step(
          answer.warning === undefined
            ? { type: 'answer', applied: answer.applied }
            : { type: 'answer', applied: answer.applied, warning: answer.warning },
        );
        if (answer.applied) void get().refreshPlugins();
      } catch (error) {
        step({ type: 'failed', message: messageOf(error) });
      }
    }

    return {
      plugins: [],
      pluginsContextWarning: undefined,
      pluginsStatus: 'idle',
      pluginsError: null,
      pluginToggle: idlePluginToggle,
      pluginProblems: [],
      pluginTrust: {},
      async refreshPlugins() {
        set({ pluginsStatus: 'loading' });
        await lookUps.run({
          request: () => api.call('plugins/list', {}),
          onAnswer: ({ plugins, contextWarning, problems }) =>
            set({
              plugins,
              pluginsContextWarning: contextWarning,
              pluginProblems: problems ?? [],
              pluginsStatus: 'loaded',
              pluginsError: null,
            }),
          onError: (error) =>
            set({ pluginsStatus: 'failed', pluginsError: `Could not list the plugins: ${messageOf(error)}` }),
        });
      },
      async setPluginEnabled(name, enabled) {
        const before = get().pluginToggle;
        step({ type: 'toggle', name, enabled });
        if (get().pluginToggle !== before) await send();
      },
      async confirmPluginWarning() {
        const before = get().pluginToggle;
        step({ type: 'confirm' });
        if (get().pluginToggle !== before) await send();
      },
      cancelPluginWarning() {
        step({ type: 'cancel' });
      },
      async setPluginTrusted(name, trusted) {
        if (get().pluginTrust.pending !== undefined) return;
        set({ pluginTrust: { pending: name } });
        try {
          // Trust only what the person was shown: the host refuses (409) if the server's tools changed since.
          const shown = get().plugins.find((plugin) => plugin.name === name)?.declarationHash;
          await api.call('plugins/set-trusted', {
            name,
            trusted,
            ...(trusted && shown !== undefined ? { declarationHash: shown } : {}),
          });
          set((state) => ({
            pluginTrust: {},
            plugins: state.plugins.map((plugin) => (plugin.name === name ? { ...plugin, trusted } : plugin)),
          }));
          void get().refreshPlugins();
        } catch (error) {
          set({ pluginTrust: { error: { name, message: messageOf(error) } } });
        }
      },
    };
  };
}
