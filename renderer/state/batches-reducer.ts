import { emptyCallRecords, type CallRecords } from '../../host/contract/api-contract.ts';
import { dropConversationEntries } from './drop-conversation-entries.ts';

/**
 * The batches data: core's call records (the one fold every reader shares, `foldCallRecords`),
 * batches by id and, per conversation, their ids in the order they began.
 */
export type BatchesData = CallRecords;

export const emptyBatchesData: BatchesData = emptyCallRecords;

/** Drops every batch of one conversation (before its journal is folded again). */
export function dropConversationBatches(data: BatchesData, conversationId: string): BatchesData {
  const kept = dropConversationEntries({ byId: data.batches, order: data.batchOrder }, conversationId);
  return kept ? { batches: kept.byId, batchOrder: kept.order } : data;
}
