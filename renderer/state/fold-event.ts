import { foldCallRecords, type HostAgentEvent } from '../../host/contract/api-contract.ts';
import {
  dropConversationApprovals,
  emptyApprovalsData,
  reduceApprovals,
  type ApprovalsData,
} from './approvals-reducer.ts';
import { dropConversationBatches, emptyBatchesData, type BatchesData } from './batches-reducer.ts';
import { dropConversationChannels, emptyChannelsData, reduceChannels, type ChannelsData } from './channels-reducer.ts';
import { dropConversationTurns, emptyTurnsData, reduceTurns, type TurnsData } from './turns-reducer.ts';

/** Everything the renderer derives from host events: the turns, batches, channels and approvals data. */
export type FoldedData = TurnsData & BatchesData & ChannelsData & ApprovalsData;

export const emptyFoldedData: FoldedData = {
  ...emptyTurnsData,
  ...emptyBatchesData,
  ...emptyChannelsData,
  ...emptyApprovalsData,
};

/**
 * Pure: the folded view after one event. The live stream and a conversation's stored journal go
 * through this same function, so a reloaded conversation looks as it did live.
 */
export function foldEvent(data: FoldedData, event: HostAgentEvent): FoldedData {
  return foldEvents(data, [event]);
}

/**
 * Pure: folds events in order, as one change: the batches through core's one fold of call records
 * (its containers copied once for the whole group, so a frame's events or a journal cost one copy).
 * `batchesBefore` numbers the batches of a journal page that does not start at the beginning.
 */
export function foldEvents(
  data: FoldedData,
  events: readonly HostAgentEvent[],
  options: { batchesBefore?: Record<string, number> } = {},
): FoldedData {
  if (events.length === 0) return data;
  const turns = reduceTurns(data, events);
  const batches = foldCallRecords(data, events, options);
  // A batch's sequence never changes once it began, so the group's final records give each send its place.
  const channels = events.reduce<ChannelsData>(
    (current, event) =>
      reduceChannels(current, {
        event,
        batchSequence: 'batchId' in event ? batches.batches[event.batchId]?.sequence : undefined,
      }),
    data,
  );
  const approvals = events.reduce<ApprovalsData>(reduceApprovals, data);
  if (turns === data && batches === data && channels === data && approvals === data) return data;
  return combineFolded({ turns, batches, channels, approvals });
}

/** Pure: the view with one conversation rebuilt from its journal alone (what it held before is dropped). */
export function replaceConversation(
  data: FoldedData,
  options: { conversationId: string; events: readonly HostAgentEvent[]; batchesBefore?: number },
): FoldedData {
  const turns = dropConversationTurns(data, options.conversationId);
  const batches = dropConversationBatches(data, options.conversationId);
  const channels = dropConversationChannels(data, options.conversationId);
  const approvals = dropConversationApprovals(data, options.conversationId);
  return foldEvents(
    combineFolded({ turns, batches, channels, approvals }),
    options.events.filter((event) => event.conversationId === options.conversationId),
    options.batchesBefore ? { batchesBefore: { [options.conversationId]: options.batchesBefore } } : {},
  );
}

/** The folded data made of each reducer's own part (a reducer's answer may carry the others' fields too). */
function combineFolded(parts: {
  turns: TurnsData;
  batches: BatchesData;
  channels: ChannelsData;
  approvals: ApprovalsData;
}): FoldedData {
  return {
    turns: parts.turns.turns,
    turnOrder: parts.turns.turnOrder,
    batches: parts.batches.batches,
    batchOrder: parts.batches.batchOrder,
    channelOutputs: parts.channels.channelOutputs,
    approvals: parts.approvals.approvals,
    approvalKeys: parts.approvals.approvalKeys,
  };
}

/**
 * Pure: the view with an older page of one conversation's journal (whole turns, all before what it
 * holds) put before what it holds: its turns and batches first, its channel outputs before the others.
 */
export function prependConversation(
  data: FoldedData,
  options: { conversationId: string; events: readonly HostAgentEvent[]; batchesBefore: number },
): FoldedData {
  const { conversationId } = options;
  const older = replaceConversation(emptyFoldedData, options);
  if (older === emptyFoldedData) return data;
  const ahead = <T>(first: Record<string, T[]>, then: Record<string, T[]>): T[] => [
    ...(first[conversationId] ?? []),
    ...(then[conversationId] ?? []),
  ];
  const olderChannels = older.channelOutputs[conversationId] ?? {};
  const channels = { ...(data.channelOutputs[conversationId] ?? {}) };
  for (const [channel, outputs] of Object.entries(olderChannels))
    channels[channel] = [...outputs, ...(channels[channel] ?? [])];
  return {
    turns: { ...older.turns, ...data.turns },
    turnOrder: { ...data.turnOrder, [conversationId]: ahead(older.turnOrder, data.turnOrder) },
    batches: { ...older.batches, ...data.batches },
    batchOrder: { ...data.batchOrder, [conversationId]: ahead(older.batchOrder, data.batchOrder) },
    channelOutputs: { ...data.channelOutputs, [conversationId]: channels },
    approvals: { ...older.approvals, ...data.approvals },
    approvalKeys: { ...older.approvalKeys, ...data.approvalKeys },
  };
}
