import { approvalKeyOf, type ApprovalsData, type ApprovalView } from '../state/approvals-reducer.ts';

/**
 * Pure: the keys of the questions of one batch that wait for the person, in index order — what one
 * card shows together when there are two or more (a batch id is unique, so two conversations' never meet).
 */
export function openQuestionsOfBatch(data: ApprovalsData, batchId: string): string[] {
  const ofBatch = data.approvalKeys[batchId];
  if (ofBatch === undefined) return [];
  return Object.values(ofBatch)
    .map((key) => data.approvals[key])
    .filter((approval): approval is ApprovalView => approval?.status === 'waiting')
    .sort((left, right) => left.index - right.index)
    .map(approvalKeyOf);
}
