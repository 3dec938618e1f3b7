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
import { databaseFileOf } from '../config/data-dir.ts';
import type { DeviceLayer } from './device-layer.ts';
import { createApiHandlers } from './create-api-handlers.ts';
import type { ApiHandlers } from './api-handlers.ts';

export interface HostOptions {
  dataDir: string;
  transport: 'electron' | 'web' | 'cli';
  model: ModelAdapter;
  /** Shown beside the model label (e.g. why the demo model is used). */
  modelNotice?: string;
  /** Settings for this run; `toolOrder` absent stays absent. */
  settings: AgentSettings;
  devices?: DeviceLayer;
  /** Where the host reports problems that are not a turn's (journal writes, listener errors). */
  log: (line: string) => void;
  version: string;
}

/** The composed application: one core for every front end. `dispose` closes everything it opened. */
export interface Host {
  agent: Agent;
  bus: EventBus;
  handlers: ApiHandlers;
  toolApi: ToolApi;
  store: SqliteConversationStore;
  dispose(): Promise<void>;
}

/**
 * The composition root: opens the store, registers the built-in plugins (system, channels,
 * devices), builds the agent and the API handlers. A bad `toolOrder` shape fails here, at start-up.
 */
export function createHost(options: HostOptions): Host {
  if (options.settings.toolOrder !== undefined) assertToolOrderShape(options.settings.toolOrder);
  const db = openDatabase({ file: databaseFileOf(options.dataDir) });
  const store = new SqliteConversationStore({ db, onInvalidRow: (report) => options.log(`skipped an invalid stored row: ${JSON.stringify(report)}`) });
  const bus = new EventBus((error, event) => options.log(`an event listener failed on ${event.type}: ${(error as Error).message}`));
  const plugins = new PluginRegistry();
  const toolApi = createToolApi({ tools: () => plugins.enabledTools() });
  plugins.register(createSystemPlugin(() => toolApi));
  plugins.register(createChannelsPlugin(() => [...defaultOutputChannels(), ...(options.devices?.displayChannels() ?? [])]));
  if (options.devices) plugins.register(options.devices.plugin);
  const agent = new Agent({
    model: () => options.model,
    plugins,
    store,
    bus,
    settings: () => options.settings,
    onJournalError: (error, event) => options.log(`could not journal ${event.type}: ${(error as Error).message}`),
  });
  const handlers = createApiHandlers({ agent, store, options });
  let disposed: Promise<void> | undefined;
  return {
    agent,
    bus,
    handlers,
    toolApi,
    store,
    dispose: () => {
      disposed ??= (async () => {
        for (const conversation of store.listConversations()) agent.abort(conversation.id);
        await plugins.dispose();
        await options.devices?.dispose();
        db.close();
      })();
      return disposed;
    },
  };
}
