import type { Plugin } from '../plugin.ts';
import type { OutputChannel } from '../output-channel.ts';
import { OUTPUT_SEND_PREFIX } from '../../tools/output-send-prefix.ts';
import type { ToolDefinition } from '../../tools/tool-definition.ts';

/** The chat and notification channels every installation has. */
export function defaultOutputChannels(): OutputChannel[] {
  return [
    {
      name: 'chat',
      description: 'A message in this chat, shown to the person.',
      send: (text) => ({ sent: true, characters: text.length }),
    },
    {
      name: 'notifications',
      description: 'A desktop notification for the person.',
      send: (text) => ({ sent: true, characters: text.length }),
    },
  ];
}

/**
 * Output channels as a plugin: `output_send__<channel>` per channel, and `output_list_channels`.
 * Channels come from a live source, so a display that is plugged in appears at the next turn.
 * Of two channels with one name the first wins (the built-ins come first): a display whose id
 * reads `chat` must not take the chat channel, nor put its tool in a request twice.
 */
export function createChannelsPlugin(source: () => OutputChannel[]): Plugin {
  const channels = (): OutputChannel[] => {
    const seen = new Set<string>();
    return source().filter((channel) => !seen.has(channel.name) && seen.add(channel.name));
  };
  return {
    name: 'channels',
    description: 'Output channels: chat, notifications and each display device.',
    tools(): ToolDefinition[] {
      const list = channels();
      const sends: ToolDefinition[] = list.map((channel) => ({
        name: `${OUTPUT_SEND_PREFIX}${channel.name}`,
        description: `Send text to the output channel '${channel.name}': ${channel.description}`,
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', description: 'What to send.' } },
          required: ['text'],
        },
        parallelSafe: true,
        outputChannel: channel.name,
        handler: async (args, context) => {
          const text = String(args.text);
          const result = await channel.send(text, context);
          context.reportOutput(text);
          return result;
        },
      }));
      const listTool: ToolDefinition = {
        name: 'output_list_channels',
        description: 'List the output channels you can send to with output_send__<channel>.',
        parameters: { type: 'object', properties: {} },
        parallelSafe: true,
        readOnly: true,
        handler: () => ({
          channels: channels().map((channel) => ({
            name: channel.name,
            tool: `${OUTPUT_SEND_PREFIX}${channel.name}`,
            description: channel.description,
          })),
        }),
      };
      return [...sends, listTool];
    },
  };
}
