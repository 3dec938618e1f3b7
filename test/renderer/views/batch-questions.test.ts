import { describe, expect, it } from 'vitest';
import { emptyApprovalsData, reduceApprovals, type ApprovalsData } from '../../../renderer/state/approvals-reducer.ts';
import { openQuestionsOfBatch } from '../../../renderer/views/batch-questions.ts';
import type { HostAgentEvent } from '../../../host/contract/api-contract.ts';

const where = { conversationId: 'c1', turnId: 't1' };
const asked = (batchId: string, index: number): HostAgentEvent => ({
  ...where,
  at: 1000 + index,
  type: 'approval/request',
  batchId,
  callId: `call-${index}`,
  approvalId: `${batchId}-q${index}`,
  index,
  name: 'relay__set',
  args: { device_id: 'relay-1', channel: index + 1, on: true },
});

describe('openQuestionsOfBatch', () => {
  it('lists the waiting questions of one batch in index order, never another batch’s or an ended one', () => {
    const events: HostAgentEvent[] = [
      asked('b1', 2),
      asked('b1', 0),
      asked('b2', 1),
      asked('b1', 1),
      asked('b1', 3),
      {
        ...where,
        at: 2000,
        type: 'approval/end',
        batchId: 'b1',
        callId: 'call-3',
        approvalId: 'b1-q3',
        approved: false,
        why: 'timeout',
      },
    ];
    const data = events.reduce<ApprovalsData>(reduceApprovals, emptyApprovalsData);
    expect(openQuestionsOfBatch(data, 'b1')).toEqual(['b1-q0', 'b1-q1', 'b1-q2']);
    expect(openQuestionsOfBatch(data, 'b2')).toEqual(['b2-q1']);
    expect(openQuestionsOfBatch(data, 'b3')).toEqual([]);
  });
});
