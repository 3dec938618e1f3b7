import type { HostAgentEvent } from '../../host/contract/api-contract.ts';

/** One `output/send`: what a call sent to a channel, and which batch and call it came from. */
export interface ChannelOutputView {
  channel: string;
  text: string;
  batchId: string;
  /** The batch's position in its conversation (from 1); 0 when the batch was never seen. */
  batchSequence: number;
  callId: string;
  /** The call's declared index in its batch. */
  index: number;
  at: number;
}

/** The channels data: per conversation, per channel, outputs in declared order (batch, then call index). */
export interface ChannelsData {
  channelOutputs: Record<string, Record<string, ChannelOutputView[]>>;
}

export const emptyChannelsData: ChannelsData = { channelOutputs: {} };

/** What the channel fold needs besides the event: the batch's position, read from the batches data. */
export interface ChannelFoldInput {
  event: HostAgentEvent;
  batchSequence: number | undefined;
}

/**
 * Pure: the channels data after one host event. Outputs are placed by (batch sequence, call index),
 * so sends that finished in any order still read in the order the model declared them.
 */
export function reduceChannels(data: ChannelsData, input: ChannelFoldInput): ChannelsData {
  const { event } = input;
  if (event.type !== 'output/send') return data;
  const output: ChannelOutputView = {
    channel: event.channel,
    text: event.text,
    batchId: event.batchId,
    batchSequence: input.batchSequence ?? 0,
    callId: event.callId,
    index: event.index,
    at: event.at,
  };
  const byChannel = data.channelOutputs[event.conversationId] ?? {};
  const list = byChannel[event.channel] ?? [];
  const position = list.findIndex((entry) => compareOutputs(output, entry) < 0);
  const next = position === -1 ? [...list, output] : [...list.slice(0, position), output, ...list.slice(position)];
  return {
    channelOutputs: { ...data.channelOutputs, [event.conversationId]: { ...byChannel, [event.channel]: next } },
  };
}

/** Drops every channel output of one conversation (before its journal is folded again). */
export function dropConversationChannels(data: ChannelsData, conversationId: string): ChannelsData {
  if (!(conversationId in data.channelOutputs)) return data;
  const channelOutputs = { ...data.channelOutputs };
  delete channelOutputs[conversationId];
  return { channelOutputs };
}

/** Declared order: earlier batch first, then lower call index; equal keys keep arrival order. */
export function compareOutputs(left: ChannelOutputView, right: ChannelOutputView): number {
  return left.batchSequence - right.batchSequence || left.index - right.index;
}
