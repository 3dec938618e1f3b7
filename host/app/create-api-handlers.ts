import { randomUUID } from 'node:crypto';
import { ConversationBusyError, type Agent } from '../../core/agent/agent.ts';
import type { AgentSettings } from '../../core/agent/assemble-turn.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import type { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import type { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import type { PluginStateStore } from '../store/plugin-state-store.ts';
import { isSettingKey } from '../store/settings-keys.ts';
import { StoreError } from '../store/store-error.ts';
import { ApiError, type ApiHandlers } from './api-handlers.ts';
import type { HostOptions } from './create-host.ts';
import type { DeviceLayer } from './device-layer.ts';
import type { PersonApprovalGate } from './person-approval-gate.ts';
import type { NoticeBus } from './notice-bus.ts';
import { toolOrderBreakage } from './tool-order-breakage.ts';
import { apiKeySecretName } from '../secrets/secret-store.ts';
import { SecretStoreError } from '../secrets/encrypted-file-secret-store.ts';
import { MODEL_PROVIDERS } from '../../core/models/provider-defaults.ts';

/** Binds each API method of the contract to the host's parts. */
export function createApiHandlers(parts: {
  agent: Agent;
  approvals: PersonApprovalGate;
  notices: NoticeBus;
  store: SqliteConversationStore;
  settingsStore: SettingsStore;
  pluginState: PluginStateStore;
  plugins: PluginRegistry;
  settings: () => AgentSettings;
  model: ModelAdapter;
  modelNotice?: string;
  devices: DeviceLayer | undefined;
  options: HostOptions;
}): ApiHandlers {
  const { agent, store, options, plugins } = parts;
  return {
    'app/info': () => ({
      version: options.version,
      transport: options.transport === 'electron' ? 'electron' : 'web',
      model: {
        label: parts.model.label,
        scripted: parts.model.scripted === true,
        ...(parts.modelNotice ? { notice: parts.modelNotice } : {}),
      },
      dataDir: options.dataDir,
    }),
    'conversations/list': () => ({ conversations: store.listConversations() }),
    'conversations/create': (input) => store.createConversation(input.title ?? 'New conversation'),
    'conversations/events': (input) => ({ events: store.loadEvents(input.conversationId) }),
    'chat/send': (input) => {
      const conversationId = input.conversationId ?? randomUUID();
      try {
        const { turnId, done } = agent.startTurn({ conversationId, text: input.text });
        done.catch((error: unknown) => options.log(`turn ${turnId} failed: ${(error as Error).message}`));
        return { conversationId, turnId };
      } catch (error) {
        if (error instanceof ConversationBusyError) throw new ApiError(409, error.message);
        throw error;
      }
    },
    'chat/abort': (input) => ({ aborted: agent.abort(input.conversationId) }),
    'approval/answer': (input) => ({ accepted: parts.approvals.answer(input.callId, input.approved) }),
    'devices/list': () => ({ devices: parts.devices?.list() ?? [] }),
    'plugins/list': () => ({
      plugins: plugins.all().map(({ plugin, enabled }) => ({
        name: plugin.name,
        description: plugin.description,
        enabled,
        tools: plugin
          .tools()
          .map((tool) => tool.name)
          .sort(),
      })),
    }),
    'plugins/set-enabled': (input) => {
      if (!plugins.all().some(({ plugin }) => plugin.name === input.name))
        throw new ApiError(404, `there is no plugin named '${input.name}'`);
      if (!input.enabled) {
        const warning = toolOrderBreakage({ plugins, settings: parts.settings(), disabling: input.name });
        if (warning && input.confirm !== true) return { applied: false, warning };
      }
      plugins.setEnabled(input.name, input.enabled);
      parts.pluginState.setEnabled(input.name, input.enabled);
      parts.notices.emit({ type: 'plugins/changed' });
      return { applied: true };
    },
    'secrets/status': () => {
      const secrets = options.secrets;
      return {
        available: secrets !== undefined,
        apiKeys: Object.fromEntries(
          MODEL_PROVIDERS.map((provider) => [provider, secrets?.has(apiKeySecretName(provider)) ?? false]),
        ),
      };
    },
    'secrets/set-api-key': (input) => {
      if (!options.secrets)
        throw new ApiError(
          400,
          'this front end keeps no keys: put the key in an environment variable on this machine and pass --api-key-env',
        );
      try {
        options.secrets.set(apiKeySecretName(input.provider), input.apiKey);
      } catch (error) {
        if (error instanceof SecretStoreError) throw new ApiError(400, error.message);
        throw error;
      }
      return { stored: true, appliesAt: 'next start' as const };
    },
    'secrets/delete-api-key': (input) => ({
      deleted: options.secrets?.delete(apiKeySecretName(input.provider)) ?? false,
    }),
    'settings/get': () => ({ settings: parts.settingsStore.getAll() }),
    'settings/set': (input) => {
      if (!isSettingKey(input.key)) throw new ApiError(400, `there is no setting named '${input.key}'`);
      try {
        if (input.value === undefined || input.value === null) parts.settingsStore.unset(input.key);
        else parts.settingsStore.set(input.key, input.value as never);
      } catch (error) {
        if (StoreError.isInstance(error)) throw new ApiError(400, error.message);
        throw error;
      }
      return { settings: parts.settingsStore.getAll() };
    },
  };
}
