import { Agent } from '../../core/agent/agent.ts';
import { ContextKeeper } from '../../core/context/context-keeper.ts';
import { AgentEvents } from '../../core/events/agent-events.ts';
import { Emitter } from '../../core/events/emitter.ts';
import type { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import { createChannelsPlugin, defaultOutputChannels } from '../../core/plugins/builtin/channels-plugin.ts';
import { createSystemPlugin } from '../../core/plugins/builtin/system-plugin.ts';
import type { ToolApi } from '../../core/tools/tool-api.ts';
import { createToolApi } from '../../core/batch/create-tool-api.ts';
import { assertToolOrderShape } from '../../core/tools/order-tools.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import type { HostNotice } from '../contract/api-contract.ts';
import { MODEL_SETTING_KEYS, type Settings } from '../contract/settings-table.ts';
import { openDatabase } from '../store/open-database.ts';
import { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';
import { SettingsStore } from '../store/settings-store.ts';
import { PluginStateStore } from '../store/plugin-state-store.ts';
import { PairedDeviceStore } from '../store/paired-device-store.ts';
import { StandingApprovalStore } from '../store/standing-approval-store.ts';
import { ModelContextStore } from '../store/model-context-store.ts';
import { dataVersionOf } from '../store/data-version.ts';
import { settingValue } from '../contract/settings-table.ts';
import type { ArgumentBounds } from '../../core/tools/argument-bounds.ts';
import { PendingApprovalStore } from '../store/pending-approval-store.ts';
import { OwnTurns, PendingApprovalsSync } from '../approvals/pending-approvals-sync.ts';
import { ClientTurns } from '../approvals/client-turns.ts';
import { PendingElicitations } from '../approvals/pending-elicitations.ts';
import { BUILTIN_PLUGINS, type BuiltinPluginOptions } from '../plugins/builtin/builtin-plugins.ts';
import type { PluginPart, PluginStartContext } from '../plugins/plugin-part.ts';
import { PluginParts } from '../plugins/plugin-parts.ts';
import { SyncedPluginRegistry } from '../plugins/synced-plugin-registry.ts';
import { turnedOffTool } from '../plugins/turned-off-tool.ts';
import { randomUUID } from 'node:crypto';
import type { ApprovalRefusal } from '../../core/batch/run-tool-call.ts';
import { databaseFileOf } from '../config/data-dir.ts';
import { ModelSelection } from '../models/model-selection.ts';
import { ModelConfigError } from '../models/select-model.ts';
import type { DeviceLayer } from '../devices/device-layer.ts';
import { deviceWaysIn } from '../devices/create-device-layer.ts';
import { PersonApprovalGate, type ApprovalPolicy } from '../approvals/person-approval-gate.ts';
import { ApprovalPin } from '../approvals/approval-pin.ts';
import { apiKeySecretName, keptSecret, wayInSecretName, type SecretStore } from '../secrets/secret-store.ts';
import { createApiHandlers } from '../api/create-api-handlers.ts';
import type { ApiHandlers } from '../api/api-handlers.ts';
import type { HostTransport } from '../api/host-parts.ts';
import { mergeSettings } from './merge-settings.ts';
import { repairInterruptedTurns } from './repair-interrupted-turns.ts';

/** How a host is composed; what a run tells the built-in plugins (their flags) comes with it. */
export type HostOptions = HostCoreOptions & BuiltinPluginOptions;

interface HostCoreOptions {
  dataDir: string;
  transport: HostTransport;
  /** Settings for this run only (flags, environment), over the stored ones; `toolOrder` absent stays absent. */
  settings?: Settings;
  /** The replies of the scripted model (`--script FILE`). */
  scriptFile?: string;
  /** A ready model (tests and embedders); wins over the model settings. */
  model?: ModelAdapter;
  devices?: DeviceLayer;
  /**
   * Builds the device layer once the store is open (paired devices and standing approvals live
   * there; `dataVersion` tells when another process changed them; `settings` are the run's, stored
   * and given); used when `devices` is absent.
   */
  attachDevices?: (stores: {
    pairingStore: PairingStore;
    standingApprovals: StandingApprovalStore;
    dataVersion: () => number;
    settings: Settings;
    /** The settings as they are now (read at every turn; `settings` is the run's start). */
    currentSettings?: () => Settings;
    /** The ways in's secrets kept in `secrets` (the desktop app's keychain), by declared name; absent without a keychain. */
    secret?: (name: string) => string | undefined;
  }) => Promise<DeviceLayer>;
  /** Tools that need the person's approval: ask through the UI (default), or decided in advance. */
  approvalPolicy?: ApprovalPolicy;
  /** With policy 'deny': why a call was not asked about, and what would allow it. */
  approvalDenial?: (toolName: string) => ApprovalRefusal;
  /**
   * The OS keychain's store for API keys and the ways in's secrets (desktop app); absent elsewhere,
   * where they come from the environment.
   */
  secrets?: SecretStore;
  /** Where the host reports problems that are not a turn's (journal writes, listener errors). */
  log: (line: string) => void;
  version: string;
  /** How often the host looks for plugin state another process changed while nothing asks (default 200 ms). */
  storePollMs?: number;
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
  /** The model of the next turn (chosen from the settings when each turn starts). */
  models: ModelSelection;
  /** What is known of the models' context windows (learned values kept in the data folder). */
  context: ContextKeeper;
  /** The settings the next turn uses: this run's over the stored ones. */
  settings: () => Settings;
  /** The built-in plugins that run something (servers, stores): their status, trust and readiness, naming none. */
  pluginParts: PluginParts;
  /** The turns another front end's clients run here: their calls' questions, in sequences too, are the client's. */
  clientTurns: ClientTurns;
  /** Plugins' questions to the person during a call; a front end that can show them says when it opens. */
  elicitations: PendingElicitations;
  /** How the first model was chosen, when there is something to say (Ollama found, the demo used, settings unusable). */
  modelNotice?: string;
  dispose(): Promise<void>;
}

/**
 * The composition root: opens the store, picks the model (flags over stored settings over the
 * default), registers the host's own plugins (system, channels, devices) and then those of
 * BUILTIN_PLUGINS with their persisted enabled state, builds the agent and the API handlers. A bad
 * `toolOrder` shape fails here.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (options.settings?.toolOrder !== undefined) assertToolOrderShape(options.settings.toolOrder);
  // What a plugin cannot read (a config named on the command line) stops the start before anything opens.
  const pluginStarts = BUILTIN_PLUGINS.map((manifest) => manifest.prepare(options));
  const db = openDatabase({ file: databaseFileOf(options.dataDir) });
  let devices: DeviceLayer | undefined;
  const started: PluginPart[] = [];
  let stopQuestions: (() => void) | undefined;
  let stopPluginLooks: (() => void) | undefined;
  try {
    const onInvalidRow = (report: unknown): void =>
      options.log(`skipped an invalid stored row: ${JSON.stringify(report)}`);
    const store = new SqliteConversationStore({ db, onInvalidRow });
    const pendingApprovalStore = new PendingApprovalStore({ db });
    // A turn whose question another process still waits on is that process's, running: not repaired.
    const repaired = repairInterruptedTurns(store, Date.now, (turnId) =>
      pendingApprovalStore.isWaiting(turnId, Date.now()),
    );
    if (repaired.turns > 0)
      options.log(
        `closed ${repaired.turns} turn(s) the last run stopped in, and answered ${repaired.calls} unfinished tool call(s) from the journal`,
      );
    const settingsStore = new SettingsStore({ db, onInvalidRow });
    const pluginState = new PluginStateStore({ db });
    const standingApprovals = new StandingApprovalStore({ db });
    const approvalPin = new ApprovalPin({
      db,
      declaredPin: (deviceId, action) =>
        devices
          ?.list()
          .find((device) => device.id === deviceId)
          ?.actions?.some((declared) => declared.name === action && declared.declaresPin === true) === true,
    });
    // Read at every turn's start, so a settings change applies between turns.
    const settings = (): Settings => mergeSettings(settingsStore.getAll(), options.settings ?? {});
    devices =
      options.devices ??
      (await options.attachDevices?.({
        pairingStore: new PairedDeviceStore({ db, onInvalidRow, waysIn: deviceWaysIn() }),
        standingApprovals,
        dataVersion: dataVersionOf(db),
        settings: settings(),
        currentSettings: settings,
        ...(options.secrets ? { secret: keptSecret(options.secrets, wayInSecretName) } : {}),
      }));
    const models = new ModelSelection({
      settings,
      audience: options.transport === 'cli' ? 'terminal' : 'window',
      ...(options.scriptFile !== undefined ? { scriptFile: options.scriptFile } : {}),
      ...(options.model ? { fixed: options.model } : {}),
      storedApiKey: (provider) => options.secrets?.get(apiKeySecretName(provider)),
    });
    // Chosen once now, so a bad command line fails at start; stored settings that cannot be used
    // leave the window usable, saying why, until they are fixed in Settings.
    try {
      await models.current();
    } catch (error) {
      if (!(error instanceof ModelConfigError) || options.transport === 'cli' || hasModelFlags(options.settings))
        throw error;
    }
    // The turns this host journals: the store's other hosts relay them, this one never relays them back.
    const ownTurns = new OwnTurns();
    // One bound for what runs and what is journaled: a call runs only with arguments its events can hold.
    const argumentBounds = (): ArgumentBounds => ({ maxBytes: settingValue(settings(), 'maxToolArgumentBytes') });
    const events = new AgentEvents({
      argumentBounds,
      journal: {
        appendEvent: (event) => {
          ownTurns.add(event.turnId);
          store.appendEvent(event);
        },
      },
      onListenerError: (error, event) =>
        options.log(`an event listener failed on ${event.type}: ${(error as Error).message}`),
    });
    const stopJournalFailures = events.onJournalFailure(({ error, event }) =>
      options.log(`could not journal ${event.type}: ${(error as Error).message}`),
    );
    const notices = new Emitter<HostNotice>({
      name: 'notice',
      onListenerError: (error, notice) =>
        options.log(`a notice listener failed on ${notice.type}: ${(error as Error).message}`),
    });
    const deviceLayer = devices;
    // Plugins' questions to the person: shown only in a window or a browser, declined when none is open.
    const elicitations = new PendingElicitations({ notify: (notice) => notices.emit(notice), log: options.log });
    const pendingApprovals: PendingApprovalsSync = new PendingApprovalsSync({
      store: pendingApprovalStore,
      journal: store,
      ownTurns,
      followOthers: options.transport === 'electron' || options.transport === 'web',
      owner: randomUUID(),
      dataVersion: dataVersionOf(db),
      relay: (event) => events.relay(event),
      // Every host on the folder checks the PIN of a PIN question before it writes an approval to it.
      answerOwn: (answer): boolean => approvals.answer({ ...answer, pinChecked: true }),
      log: options.log,
    });
    const clientTurns = new ClientTurns();
    const approvals = new PersonApprovalGate({
      questions: pendingApprovals.board,
      waitFor: (request) => clientTurns.approvalWait(request, settings()),
      log: options.log,
      policy: options.approvalPolicy ?? 'ask',
      emit: (event) => void events.emit(event),
      standing: standingApprovals,
      pin: approvalPin,
      ...(deviceLayer?.approvalTarget
        ? { targetOf: (toolName, args) => deviceLayer.approvalTarget?.(toolName, args) }
        : {}),
      onStandingChange: () => notices.emit({ type: 'approvals/changed' }),
      ...(options.approvalDenial ? { denial: options.approvalDenial } : {}),
    });
    pendingApprovals.start();
    stopQuestions = () => pendingApprovals.dispose();
    // Another process's toggle applies here before the next turn or call, as its grants do.
    const plugins = new SyncedPluginRegistry({
      listDisabled: () => pluginState.listDisabled(),
      dataVersion: dataVersionOf(db),
      onChange: () => notices.emit({ type: 'plugins/changed' }),
      log: options.log,
      ...(options.storePollMs !== undefined ? { pollMs: options.storePollMs } : {}),
    });
    // Plugins reach tools only through the ToolAPI: the same gates as the agent's own calls, approval included.
    const toolApi = createToolApi({
      tools: () => plugins.enabledTools(),
      pipeline: { approve: approvals.gate, argumentBounds },
      withheld: (name) => plugins.withheld(name) ?? turnedOffTool(plugins, name),
    });
    plugins.register(createSystemPlugin(() => toolApi));
    plugins.register(createChannelsPlugin(() => [...defaultOutputChannels(), ...(devices?.displayChannels() ?? [])]));
    if (devices) plugins.register(devices.plugin);
    const stopDeviceNotices = devices?.onNotice?.((notice) => notices.emit(notice));
    const context = new ContextKeeper({ memory: new ModelContextStore({ db }), log: options.log });
    const pluginContext: PluginStartContext = {
      db,
      onInvalidRow,
      settings,
      toolApi: () => toolApi,
      plugins,
      standingApprovals,
      askPerson: elicitations.ask,
      log: options.log,
      version: options.version,
      // Called only once the host runs (a config change after start): the agent exists by then.
      whenNoTurnRuns: () => agent.whenIdle(),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    };
    for (const start of pluginStarts) {
      const part = await start(pluginContext);
      if (!part) continue;
      started.push(part);
      for (const plugin of part.plugins) plugins.register(plugin);
    }
    const pluginParts = new PluginParts(started);
    // Every plugin is registered: the store's state as it is now, then a look every pollMs.
    plugins.refresh();
    plugins.start();
    stopPluginLooks = () => plugins.stop();
    const stopPartNotices = pluginParts.subscribe({
      changed: () => notices.emit({ type: 'plugins/changed' }),
      approvalsChanged: () => notices.emit({ type: 'approvals/changed' }),
    });
    // A toggle starts or stops what a plugin runs (an MCP server's process).
    const stopSyncOnToggle = notices.subscribe((notice) => {
      if (notice.type === 'plugins/changed') pluginParts.sync();
    });
    pluginParts.sync();
    const agent = new Agent({
      context,
      // A turn that cannot start says why in the words of the front end it runs in.
      model: () =>
        options.transport === 'cli'
          ? models.current()
          : models.current().catch((error: unknown) => {
              throw error instanceof ModelConfigError ? new ModelConfigError(error.inWindow) : error;
            }),
      approve: approvals.gate,
      argumentBounds,
      plugins,
      store,
      events,
      settings,
    });
    const modelNotice = models.status?.notice;
    const handlers = createApiHandlers({
      agent,
      approvals,
      pendingApprovals,
      elicitations,
      standingApprovals,
      approvalPin,
      notices,
      store,
      settingsStore,
      pluginState,
      plugins,
      settings,
      runSettings: options.settings ?? {},
      devices,
      pluginParts,
      models,
      context,
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
      models,
      context,
      settings,
      clientTurns,
      pluginParts,
      elicitations,
      ...(modelNotice ? { modelNotice } : {}),
      dispose: () => {
        disposed ??= (async () => {
          // Shutting down: running turns stop without waiting to read their devices back.
          agent.abortAll();
          elicitations.dispose();
          await agent.whenIdle();
          pendingApprovals.dispose();
          stopDeviceNotices?.();
          stopPartNotices();
          stopSyncOnToggle();
          stopJournalFailures();
          await plugins.dispose();
          // What the parts run besides their plugins (an MCP config's watch).
          await pluginParts.dispose();
          await devices?.dispose();
          db.close();
        })();
        return disposed;
      },
    };
  } catch (error) {
    await new PluginParts(started).dispose();
    stopQuestions?.();
    stopPluginLooks?.();
    await devices?.dispose();
    db.close();
    throw error;
  }
}

/** Whether this run chose its model on the command line (then a model that cannot be used stops the start). */
function hasModelFlags(settings: Settings | undefined): boolean {
  return MODEL_SETTING_KEYS.some((key) => settings?.[key] !== undefined);
}
