import { describe, expect, it } from 'vitest';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { createChannelsPlugin } from '../../../core/plugins/builtin/channels-plugin.ts';
import type { OutputChannel } from '../../../core/plugins/output-channel.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import { gate, type Gate } from './batch-helpers.ts';

/** Channels whose sends wait for the test to release them, keyed by the text sent. */
function gatedChannels(names: string[]) {
  const gates = new Map<string, Gate>();
  const sent: string[] = [];
  const channels: OutputChannel[] = names.map((name) => ({
    name,
    description: name,
    send: async (text) => {
      sent.push(`${name}:${text}`);
      const waiting = gates.get(text);
      if (waiting) await waiting.promise;
      return { delivered: true };
    },
  }));
  return { channels, gates, sent };
}

function setup(script: Script, channels: OutputChannel[]) {
  const store = new InMemoryConversationStore();
  const events: AgentEvent[] = [];
  const agentEvents = new AgentEvents({ journal: store });
  agentEvents.subscribe((event) => events.push(event));
  const plugins = new PluginRegistry();
  plugins.register(createChannelsPlugin(() => channels));
  let ids = 0;
  const agent = new Agent({
    model: () => new ScriptedModel(script),
    plugins,
    store,
    events: agentEvents,
    settings: () => ({}),
    newId: () => `id-${ids++}`,
  });
  return { agent, store, events };
}

const send = (channel: string, text: string) => ({ name: `output_send__${channel}`, args: { text } });

describe('output channels in a batch', () => {
  it('lets sends to different channels finish in any order while the journal keeps each channel in declared order', async () => {
    const { channels, gates, sent } = gatedChannels(['chat', 'notifications', 'display']);
    for (const text of ['hello', 'n1', 'd1']) gates.set(text, gate());
    const { agent, store, events } = setup(
      {
        replies: [
          { toolCalls: [send('chat', 'hello'), send('notifications', 'n1'), send('display', 'd1')] },
          { toolCalls: [send('display', 'd2'), send('chat', 'second')] },
          { text: 'sent' },
        ],
      },
      channels,
    );
    const done = agent.runTurn({ conversationId: 'c1', text: 'tell everyone' });
    await expect.poll(() => sent.length).toBe(3);
    // Finish the first batch in reverse declared order.
    const firstBatchId = events.find((event) => event.type === 'batch/start')?.batchId;
    const ends = () => events.filter((event) => event.type === 'tool/end' && event.batchId === firstBatchId).length;
    for (const [k, text] of ['d1', 'n1', 'hello'].entries()) {
      gates.get(text)?.open();
      await expect.poll(ends).toBe(k + 1);
    }
    expect((await done).reason).toBe('done');

    const batches = store.events.filter((event) => event.type === 'batch/start');
    expect(batches.map((event) => (event.type === 'batch/start' ? event.mode : ''))).toEqual(['parallel', 'parallel']);
    const firstBatchEnds = store.events.filter(
      (event) => event.type === 'tool/end' && event.batchId === batches[0]?.batchId,
    );
    expect(firstBatchEnds.map((event) => (event.type === 'tool/end' ? event.index : -1))).toEqual([2, 1, 0]);

    // Read each channel the way a front end does: by batch, then by declared index.
    const batchOrder = batches.map((event) => (event.type === 'batch/start' ? event.batchId : ''));
    const sends = store.events.flatMap((event) => (event.type === 'output/send' ? [event] : []));
    expect(sends.every((event) => batchOrder.includes(event.batchId))).toBe(true);
    const read = (channel: string) =>
      sends
        .filter((event) => event.channel === channel)
        .sort((a, b) => batchOrder.indexOf(a.batchId) - batchOrder.indexOf(b.batchId) || a.index - b.index)
        .map((event) => event.text);
    expect(read('chat')).toEqual(['hello', 'second']);
    expect(read('display')).toEqual(['d1', 'd2']);
    expect(read('notifications')).toEqual(['n1']);
    // The declared index is the call's place in its reply, not its finishing place.
    expect(
      sends.filter((event) => event.batchId === batchOrder[0]).map((event) => [event.channel, event.index]),
    ).toEqual([
      ['display', 2],
      ['notifications', 1],
      ['chat', 0],
    ]);
  });

  it('forces the batch serial when two calls send to one channel, and delivers them in declared order', async () => {
    const { channels, sent } = gatedChannels(['chat', 'notifications']);
    const { agent, store } = setup(
      {
        replies: [
          { toolCalls: [send('chat', 'first'), send('chat', 'second'), send('notifications', 'x')] },
          { text: 'ok' },
        ],
      },
      channels,
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'go' })).reason).toBe('done');
    expect(store.events.find((event) => event.type === 'batch/start')).toMatchObject({
      mode: 'serial',
      reason: 'serial: two sends to the output channel chat keep their order',
    });
    expect(sent).toEqual(['chat:first', 'chat:second', 'notifications:x']);
    const sends = store.events.flatMap((event) =>
      event.type === 'output/send' ? [[event.channel, event.index, event.text]] : [],
    );
    expect(sends).toEqual([
      ['chat', 0, 'first'],
      ['chat', 1, 'second'],
      ['notifications', 2, 'x'],
    ]);
  });

  it('records no output/send for a send that failed', async () => {
    const channels: OutputChannel[] = [
      {
        name: 'chat',
        description: 'chat',
        send: () => {
          throw new Error('window closed');
        },
      },
    ];
    const { agent, store } = setup({ replies: [{ toolCalls: [send('chat', 'lost')] }, { text: 'ok' }] }, channels);
    await agent.runTurn({ conversationId: 'c1', text: 'go' });
    expect(store.events.filter((event) => event.type === 'output/send')).toEqual([]);
    expect(store.events.find((event) => event.type === 'tool/end')).toMatchObject({
      ok: false,
      error: { reason: 'failed', detail: 'window closed' },
    });
  });
});
