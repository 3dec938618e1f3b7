import { Agent } from '../../core/agent/agent.ts';
import { EventBus } from '../../core/events/event-bus.ts';
import { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import { createChannelsPlugin, defaultOutputChannels } from '../../core/plugins/builtin/channels-plugin.ts';
import { createSystemPlugin } from '../../core/plugins/builtin/system-plugin.ts';
import { createToolApi, type ToolApi } from '../../core/tools/tool-api.ts';
import { assertToolOrderShape } from '../../core/tools/order-tools.ts';
import type { AgentSettings } from '../../core/agent/assemble-turn.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import { openDatabase } from '../store/open-database.ts';
import { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';
import { SettingsStore } from '../store/settings-store.ts';
import { PluginStateStore } from '../store/plugin-state-store.ts';
import { PairedDeviceStore } from '../store/paired-device-store.ts';
import { SqliteSequenceStore } from '../store/sqlite-sequence-store.ts';
import { createSequencesPlugin } from '../../core/sequences/create-sequences-plugin.ts';
import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import { databaseFileOf } from '../config/data-dir.ts';
import type { ModelChoice } from '../models/model-choice.ts';
import { selectModel } from '../models/select-model.ts';
import type { DeviceLayer } from './device-layer.ts';
import { PersonApprovalGate, type ApprovalPolicy } from './person-approval-gate.ts';
import { apiKeySecretName, type SecretStore } from '../secrets/secret-store.ts';
import { createApiHandlers } from './create-api-handlers.ts';
import type { ApiHandlers } from './api-handlers.ts';
import { mergeSettings } from './merge-settings.ts';
import { closeInterruptedTurns } from './close-interrupted-turns.ts';
import { NoticeBus } from './notice-bus.ts';

export interface HostOptions {
  dataDir: string;
  transport: 'electron' | 'web' | 'cli';
  /** The model from flags; unset fields fall back to the stored settings, then to the default. */
  modelChoice?: ModelChoice;
  /** A ready model (tests and embedders); wins over `modelChoice`. */
  model?: ModelAdapter;
  /** Settings for this run only, over the stored ones; `toolOrder` absent stays absent. */
  settings?: AgentSettings;
  devices?: DeviceLayer;
  /** Builds the device layer once the store is open (paired devices live there); used when `devices` is absent. */
  attachDevices?: (stores: { pairingStore: PairingStore }) => Promise<DeviceLayer>;
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
  bus: EventBus;
  /** Changes outside a turn (devices, plugins), for every front end's live stream. */
  notices: NoticeBus;
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
 * default), registers the built-in plugins (system, channels, devices) with their persisted
 * enabled state, builds the agent and the API handlers. A bad `toolOrder` shape fails here.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (options.settings?.toolOrder !== undefined) assertToolOrderShape(options.settings.toolOrder);
  const db = openDatabase({ file: databaseFileOf(options.dataDir) });
  let devices: DeviceLayer | undefined;
  try {
    const onInvalidRow = (report: unknown): void =>
      options.log(`skipped an invalid stored row: ${JSON.stringify(report)}`);
    const store = new SqliteConversationStore({ db, onInvalidRow });
    closeInterruptedTurns(store);
    const settingsStore = new SettingsStore({ db, onInvalidRow });
    const pluginState = new PluginStateStore({ db });
    devices =
      options.devices ?? (await options.attachDevices?.({ pairingStore: new PairedDeviceStore({ db, onInvalidRow }) }));
    const stored = settingsStore.getAll();
    const selected = options.model
      ? { adapter: options.model }
      : await selectModel(
          {
            provider: options.modelChoice?.provider ?? stored.provider,
            model: options.modelChoice?.model ?? stored.model,
            baseUrl: options.modelChoice?.baseUrl ?? stored.baseUrl,
            apiKeyEnv: options.modelChoice?.apiKeyEnv ?? stored.apiKeyEnv,
            scriptFile: options.modelChoice?.scriptFile,
          },
          { storedApiKey: (provider) => options.secrets?.get(apiKeySecretName(provider)) },
        );
    const bus = new EventBus((error, event) =>
      options.log(`an event listener failed on ${event.type}: ${(error as Error).message}`),
    );
    const plugins = new PluginRegistry({ disabled: pluginState.listDisabled() });
    const toolApi = createToolApi({ tools: () => plugins.enabledTools() });
    plugins.register(createSystemPlugin(() => toolApi));
    plugins.register(createChannelsPlugin(() => [...defaultOutputChannels(), ...(devices?.displayChannels() ?? [])]));
    if (devices) plugins.register(devices.plugin);
    const notices = new NoticeBus();
    const stopDeviceNotices = devices?.onNotice?.((notice) => notices.emit(notice));
    plugins.register(
      createSequencesPlugin({ store: new SqliteSequenceStore({ db, onInvalidRow }), toolApi: () => toolApi }),
    );
    // Read at every turn's start, so a settings change applies between turns.
    const settings = (): AgentSettings => mergeSettings(settingsStore.getAll(), options.settings ?? {});
    const approvals = new PersonApprovalGate({
      policy: options.approvalPolicy ?? 'ask',
      emit: (event) => {
        try {
          store.appendEvent(event);
        } catch (error) {
          options.log(`could not journal ${event.type}: ${(error as Error).message}`);
        }
        bus.emit(event);
      },
    });
    const agent = new Agent({
      model: () => selected.adapter,
      approve: approvals.gate,
      plugins,
      store,
      bus,
      settings,
      onJournalError: (error, event) => options.log(`could not journal ${event.type}: ${(error as Error).message}`),
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
      options,
    });
    let disposed: Promise<void> | undefined;
    return {
      agent,
      bus,
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
