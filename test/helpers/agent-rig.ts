import { Agent, type AgentOptions } from '../../core/agent/agent.ts';
import { InMemoryConversationStore, type ConversationStore } from '../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../core/events/agent-events.ts';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import type { Plugin } from '../../core/plugins/plugin.ts';
import { PluginRegistry } from '../../core/plugins/plugin-registry.ts';

/**
 * An Agent with one ready `model` and `plugins` registered in the order given, journaling to
 * `store` (a fresh in-memory one unless given); every event it emits is collected in `events`.
 * The rest of the Agent's options pass through; settings are none unless given.
 */
export function agentRig<S extends ConversationStore = InMemoryConversationStore>(
  options: { model: ModelAdapter; plugins: Plugin[]; store?: S } & Partial<
    Omit<AgentOptions, 'model' | 'plugins' | 'store' | 'events'>
  >,
): { agent: Agent; events: AgentEvent[]; store: S } {
  const { model, plugins: pluginList, store: given, ...rest } = options;
  const store = given ?? (new InMemoryConversationStore() as ConversationStore as S);
  const agentEvents = new AgentEvents({ journal: store });
  const events: AgentEvent[] = [];
  agentEvents.subscribe((event) => events.push(event));
  const plugins = new PluginRegistry();
  for (const plugin of pluginList) plugins.register(plugin);
  const agent = new Agent({ model: () => model, plugins, store, events: agentEvents, settings: () => ({}), ...rest });
  return { agent, events, store };
}

/** A plugin `test` with one tool, `lamp__set`, that does nothing but note in `ran` that it ran. */
export function lampSetPlugin(ran: string[]): Plugin {
  return {
    name: 'test',
    description: 'test',
    tools: () => [
      {
        name: 'lamp__set',
        description: 'switch',
        parameters: { type: 'object' },
        handler: () => void ran.push('lamp__set'),
      },
    ],
  };
}
