import { describe, expect, it } from 'vitest';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import type { Plugin } from '../../../core/plugins/plugin.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { createToolApi } from '../../../core/batch/create-tool-api.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';

/** A plugin that offers nothing now but knows `lamp__set`: nobody granted it. */
const withholding: Plugin = {
  name: 'devices',
  description: 'devices',
  tools: () => [],
  withheld: (name) =>
    name === 'lamp__set'
      ? new ToolError({ reason: 'unauthorized', field: 'device_id', detail: 'set is not granted on lamp-1' })
      : undefined,
};

async function runCalls(names: string[]): Promise<AgentEvent[]> {
  const store = new InMemoryConversationStore();
  const events = new AgentEvents({ journal: store });
  const seen: AgentEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const plugins = new PluginRegistry();
  plugins.register(withholding);
  const model = new ScriptedModel({
    replies: [{ toolCalls: names.map((name) => ({ name, args: {} })) }, { text: 'ok' }],
  });
  const agent = new Agent({ model: () => model, plugins, store, events, settings: () => ({}) });
  await agent.runTurn({ conversationId: 'c1', text: 'go' });
  return seen;
}

describe('a tool a plugin withholds', () => {
  it("is answered with the plugin's refusal, not as unknown, and a name nobody knows stays not_found", async () => {
    const events = await runCalls(['lamp__set', 'toaster__bake']);
    const ends = events.flatMap((event) => (event.type === 'tool/end' ? [event] : []));
    expect(ends.map((end) => [end.name, end.error?.reason, end.outcome])).toEqual([
      ['lamp__set', 'unauthorized', 'not_sent'],
      ['toaster__bake', 'not_found', 'not_sent'],
    ]);
    expect(ends[0]?.error?.detail).toBe('set is not granted on lamp-1');
  });

  it('is refused the same way through the ToolAPI', async () => {
    const plugins = new PluginRegistry();
    plugins.register(withholding);
    const api = createToolApi({ tools: () => plugins.enabledTools(), withheld: (name) => plugins.withheld(name) });
    const context = { conversationId: 'c1', caller: 'test' };
    expect((await api.canUse(context, 'lamp__set', {}))?.reason).toBe('unauthorized');
    const outcome = await api.call({ ...context, signal: AbortSignal.timeout(5000) }, 'lamp__set', {});
    expect(outcome).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    expect((await api.canUse(context, 'toaster__bake', {}))?.reason).toBe('not_found');
  });

  it('is not withheld by a disabled plugin', () => {
    const plugins = new PluginRegistry({ disabled: ['devices'] });
    plugins.register(withholding);
    expect(plugins.withheld('lamp__set')).toBeUndefined();
  });
});
