import { describe, expect, it } from 'vitest';
import { createChannelsPlugin, defaultOutputChannels } from '../../../core/plugins/builtin/channels-plugin.ts';
import type { OutputChannel } from '../../../core/plugins/output-channel.ts';
import type { ToolCallContext } from '../../../core/tools/tool-definition.ts';
import { decideBatchMode } from '../../../core/batch/decide-batch-mode.ts';

const reported: string[] = [];
const context = {
  signal: new AbortController().signal,
  extra: {},
  attachMedia: () => {},
  reportOutput: (text: string) => void reported.push(text),
  markSent: () => {},
} as unknown as ToolCallContext;

describe('createChannelsPlugin', () => {
  it('offers one output_send__<channel> tool per channel and output_list_channels', () => {
    const plugin = createChannelsPlugin(defaultOutputChannels);
    expect(plugin.tools().map((tool) => tool.name)).toEqual([
      'output_send__chat',
      'output_send__notifications',
      'output_list_channels',
    ]);
  });

  it('keeps the first of two channels of one name: a display whose id is "chat" cannot take the chat channel', async () => {
    const shown: string[] = [];
    const display: OutputChannel = {
      name: 'chat',
      description: 'Text display chat',
      send: (text) => void shown.push(text),
    };
    const plugin = createChannelsPlugin(() => [...defaultOutputChannels(), display]);
    const tools = plugin.tools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'output_send__chat',
      'output_send__notifications',
      'output_list_channels',
    ]);
    const own = { ...context, reportOutput: () => {} } as ToolCallContext;
    await tools[0]!.handler({ text: 'hello' }, own);
    expect(shown).toEqual([]);
    const listed = (await tools[2]!.handler({}, own)) as { channels: { name: string }[] };
    expect(listed.channels.map((channel) => channel.name)).toEqual(['chat', 'notifications']);
  });

  it('declares the send tools parallel-safe with their channel, so only same-channel sends force serial', () => {
    const tools = createChannelsPlugin(defaultOutputChannels).tools();
    const chat = tools.find((tool) => tool.name === 'output_send__chat');
    const notifications = tools.find((tool) => tool.name === 'output_send__notifications');
    expect(chat).toMatchObject({ parallelSafe: true, outputChannel: 'chat' });
    expect(
      decideBatchMode([
        { name: 'output_send__chat', tool: chat },
        { name: 'output_send__notifications', tool: notifications },
      ]).mode,
    ).toBe('parallel');
    expect(
      decideBatchMode([
        { name: 'output_send__chat', tool: chat },
        { name: 'output_send__chat', tool: chat },
      ]).mode,
    ).toBe('serial');
  });

  it('sends the text to its channel, requires it, and reports what it sent', async () => {
    const received: string[] = [];
    const channels: OutputChannel[] = [
      {
        name: 'display',
        description: 'the hall display',
        send: (text) => {
          received.push(text);
          return { shown: true };
        },
      },
    ];
    const send = createChannelsPlugin(() => channels).tools()[0];
    expect(send?.parameters.required).toEqual(['text']);
    expect(await send?.handler({ text: 'Hello' }, context)).toEqual({ shown: true });
    expect(received).toEqual(['Hello']);
    expect(reported).toEqual(['Hello']);
  });

  it('lists the channels with the tool that reaches each', async () => {
    const list = createChannelsPlugin(defaultOutputChannels)
      .tools()
      .find((tool) => tool.name === 'output_list_channels');
    expect(await list?.handler({}, context)).toEqual({
      channels: [
        { name: 'chat', tool: 'output_send__chat', description: 'A message in this chat, shown to the person.' },
        {
          name: 'notifications',
          tool: 'output_send__notifications',
          description: 'A desktop notification for the person.',
        },
      ],
    });
  });

  it('picks up a channel that appears later (a display plugged in)', () => {
    const channels: OutputChannel[] = [];
    const plugin = createChannelsPlugin(() => channels);
    expect(plugin.tools().map((tool) => tool.name)).toEqual(['output_list_channels']);
    channels.push({ name: 'display', description: 'd', send: () => null });
    expect(plugin.tools().map((tool) => tool.name)).toEqual(['output_send__display', 'output_list_channels']);
  });
});
