import { Agent } from '../../core/agent/agent.ts';
import { AgentEvents } from '../../core/events/agent-events.ts';
import { Emitter } from '../../core/events/emitter.ts';
import { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import { createChannelsPlugin, defaultOutputChannels } from '../../core/plugins/builtin/channels-plugin.ts';
import { createSystemPlugin } from '../../core/plugins/builtin/system-plugin.ts';
import { createToolApi, type ToolApi } from '../../core/tools/tool-api.ts';
import { assertToolOrderShape } from '../../core/tools/order-tools.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import { createSequencesPlugin } from '../../core/sequences/create-sequences-plugin.ts';
import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import type { HostNotice } from '../contract/api-contract.ts';
import type { Settings } from '../contract/settings-table.ts';
import { openDatabase } from '../store/open-database.ts';
import { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';
import { SettingsStore } from '../store/settings-store.ts';
import { PluginStateStore } from '../store/plugin-state-store.ts';
import { PairedDeviceStore } from '../store/paired-device-store.ts';
import { SqliteSequenceStore } from '../store/sqlite-sequence-store.ts';
import { databaseFileOf } from '../config/data-dir.ts';
import { selectModel } from '../models/select-model.ts';
import type { DeviceLayer } from '../devices/device-layer.ts';
import { PersonApprovalGate, type ApprovalPolicy } from '../approvals/person-approval-gate.ts';
import { apiKeySecretName, type SecretStore } from '../secrets/secret-store.ts';
import { createApiHandlers } from '../api/create-api-handlers.ts';
import type { ApiHandlers } from '../api/api-handlers.ts';
import { mergeSettings } from './merge-settings.ts';
import { repairInterruptedTurns } from './repair-interrupted-turns.ts';
import { sequenceBudgetOf } from './sequence-budget-of.ts';

export interface HostOptions {
  dataDir: string;
  transport: 'electron' | 'web' | 'cli';
  /** Settings for this run only (flags, environment), over the stored ones; `toolOrder` absent stays absent. */
  settings?: Settings;
  /** The replies of the scripted model (`--script FILE`). */
  scriptFile?: string;
  /** A ready model (tests and embedders); wins over the model settings. */
  model?: ModelAdapter;
  devices?: DeviceLayer;
  /**
   * Builds the device layer once the store is open (paired devices live there; `settings` are the
   * run's, stored and given); used when `devices` is absent.
   */
  attachDevices?: (stores: { pairingStore: PairingStore; settings: Settings }) => Promise<DeviceLayer>;
  /** Tools that need the person's approval: ask through the UI (default), or decided in advance. */
  approvalPolicy?: ApprovalPolicy;
  /** The OS keychain's store for API keys (desktop app); absent elsewhere, where keys come from the environment. */
  secrets?: SecretStore;
  /** Where the host reports problems that are not a turn's (journal writes, listener errors). */
  log: (line: string) => void;
  version: string;
}

/** The composed application: one core for every front end. `dispose` closes everything it opened. */
export interface Host {
  agent: Agent;
  /** Every agent event, journaled then broadcast: what front ends subscribe to. */
  events: AgentEvents;
  /** Changes outside a turn (devices, plugins), for every front end's live stream. */
  notices: Emitter<HostNotice>;
  handlers: ApiHandlers;
  toolApi: ToolApi;
  store: SqliteConversationStore;
  settingsStore: SettingsStore;
  plugins: PluginRegistry;
  model: ModelAdapter;
  modelNotice?: string;
  dispose(): Promise<void>;
}

/**
 * The composition root: opens the store, picks the model (flags over stored settings over the
 * default), registers the built-in plugins (system, channels, devices, sequences) with their
 * persisted enabled state, builds the agent and the API handlers. A bad `toolOrder` shape fails here.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (options.settings?.toolOrder !== undefined) assertToolOrderShape(options.settings.toolOrder);
  const db = openDatabase({ file: databaseFileOf(options.dataDir) });
  let devices: DeviceLayer | undefined;
  try {
    const onInvalidRow = (report: unknown): void =>
      options.log(`skipped an invalid stored row: ${JSON.stringify(report)}`);
    const store = new SqliteConversationStore({ db, onInvalidRow });
    const repaired = repairInterruptedTurns(store);
    if (repaired.turns > 0)
      options.log(
        `closed ${repaired.turns} turn(s) the last run stopped in, and answered ${repaired.calls} unfinished tool call(s) from the journal`,
      );
    const settingsStore = new SettingsStore({ db, onInvalidRow });
    const pluginState = new PluginStateStore({ db });
    // Read at every turn's start, so a settings change applies between turns.
    const settings = (): Settings => mergeSettings(settingsStore.getAll(), options.settings ?? {});
    const chosen = settings();
    devices =
      options.devices ??
      (await options.attachDevices?.({ pairingStore: new PairedDeviceStore({ db, onInvalidRow }), settings: chosen }));
    const selected = options.model
      ? { adapter: options.model }
      : await selectModel(
          {
            provider: chosen.provider,
            model: chosen.model,
            baseUrl: chosen.baseUrl,
            apiKeyEnv: chosen.apiKeyEnv,
            scriptFile: options.scriptFile,
          },
          { storedApiKey: (provider) => options.secrets?.get(apiKeySecretName(provider)) },
        );
    const events = new AgentEvents({
      journal: store,
      onListenerError: (error, event) =>
        options.log(`an event listener failed on ${event.type}: ${(error as Error).message}`),
    });
    const stopJournalFailures = events.onJournalFailure(({ error, event }) =>
      options.log(`could not journal ${event.type}: ${(error as Error).message}`),
    );
    const approvals = new PersonApprovalGate({
      policy: options.approvalPolicy ?? 'ask',
      emit: (event) => void events.emit(event),
    });
    const plugins = new PluginRegistry({ disabled: pluginState.listDisabled() });
    // Plugins reach tools only through the ToolAPI: the same gates as the agent's own calls, approval included.
    const toolApi = createToolApi({ tools: () => plugins.enabledTools(), pipeline: { approve: approvals.gate } });
    plugins.register(createSystemPlugin(() => toolApi));
    plugins.register(createChannelsPlugin(() => [...defaultOutputChannels(), ...(devices?.displayChannels() ?? [])]));
    if (devices) plugins.register(devices.plugin);
    const notices = new Emitter<HostNotice>({
      name: 'notice',
      onListenerError: (error, notice) =>
        options.log(`a notice listener failed on ${notice.type}: ${(error as Error).message}`),
    });
    const stopDeviceNotices = devices?.onNotice?.((notice) => notices.emit(notice));
    plugins.register(
      createSequencesPlugin({
        store: new SqliteSequenceStore({ db, onInvalidRow }),
        toolApi: () => toolApi,
        budget: () => sequenceBudgetOf(settings()),
      }),
    );
    const agent = new Agent({
      model: () => selected.adapter,
      approve: approvals.gate,
      plugins,
      store,
      events,
      settings,
    });
    const modelNotice = 'notice' in selected ? selected.notice : undefined;
    const handlers = createApiHandlers({
      agent,
      approvals,
      notices,
      store,
      settingsStore,
      pluginState,
      plugins,
      settings,
      devices,
      model: selected.adapter,
      ...(modelNotice ? { modelNotice } : {}),
      secrets: options.secrets,
      transport: options.transport,
      dataDir: options.dataDir,
      version: options.version,
      log: options.log,
    });
    let disposed: Promise<void> | undefined;
    return {
      agent,
      events,
      notices,
      handlers,
      toolApi,
      store,
      settingsStore,
      plugins,
      model: selected.adapter,
      ...(modelNotice ? { modelNotice } : {}),
      dispose: () => {
        disposed ??= (async () => {
          for (const conversation of store.listConversations()) agent.abort(conversation.id);
          await agent.whenIdle();
          stopDeviceNotices?.();
          stopJournalFailures();
          await plugins.dispose();
          await devices?.dispose();
          db.close();
        })();
        return disposed;
      },
    };
  } catch (error) {
    await devices?.dispose();
    db.close();
    throw error;
  }
}
