import type { HostAgentEvent } from '../../host/contract/api-contract.ts';
import {
  dropConversationApprovals,
  emptyApprovalsData,
  reduceApprovals,
  type ApprovalsData,
} from './approvals-reducer.ts';
import { dropConversationBatches, emptyBatchesData, reduceBatches, type BatchesData } from './batches-reducer.ts';
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
  const turns = reduceTurns(data, event);
  const batches = reduceBatches(data, event);
  const batchSequence = 'batchId' in event ? batches.batches[event.batchId]?.sequence : undefined;
  const channels = reduceChannels(data, { event, batchSequence });
  const approvals = reduceApprovals(data, event);
  if (turns === data && batches === data && channels === data && approvals === data) return data;
  return combineFolded({ turns, batches, channels, approvals });
}

/** Pure: folds events in order. */
export function foldEvents(data: FoldedData, events: readonly HostAgentEvent[]): FoldedData {
  return events.reduce(foldEvent, data);
}

/** Pure: the view with one conversation rebuilt from its journal alone (what it held before is dropped). */
export function replaceConversation(
  data: FoldedData,
  options: { conversationId: string; events: readonly HostAgentEvent[] },
): FoldedData {
  const turns = dropConversationTurns(data, options.conversationId);
  const batches = dropConversationBatches(data, options.conversationId);
  const channels = dropConversationChannels(data, options.conversationId);
  const approvals = dropConversationApprovals(data, options.conversationId);
  return foldEvents(
    combineFolded({ turns, batches, channels, approvals }),
    options.events.filter((event) => event.conversationId === options.conversationId),
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
