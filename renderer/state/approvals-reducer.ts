import type { HostAgentEvent } from '../../host/contract/api-contract.ts';

/**
 * Where the person's approval of one call stands. `waiting`: the host asked and waits;
 * `unanswered`: the call or its turn ended with no `approval/end` on record (a journal cut short);
 * `standing`: a standing approval ("Always allow") covered it, nobody was asked.
 */
export type ApprovalStatus = 'waiting' | 'allowed' | 'denied' | 'timeout' | 'stopped' | 'unanswered' | 'standing';

/** One question the host asked the person (`approval/request`), and how it ended. */
export interface ApprovalView {
  /** What an answer names; absent in journals written before questions had one (such a question cannot be answered). */
  approvalId?: string;
  callId: string;
  conversationId: string;
  turnId: string;
  batchId: string;
  index: number;
  /** Empty when only the `approval/end` was seen. */
  name: string;
  args: Record<string, unknown>;
  /** The device the call goes to: what "Always allow" covers with the tool. */
  deviceId?: string;
  /** Allowing it needs the approval PIN (never "Always allow"). */
  needsPin?: true;
  /** The person chose "Always allow" for it. */
  remembered?: boolean;
  status: ApprovalStatus;
  requestedAt?: number;
  endedAt?: number;
}

/**
 * The approvals data: every question by its key (`approvalKeyOf`), kept apart from batches so one
 * whose batch was never seen still counts, and per batch and call id the key of its question (a
 * call id alone repeats across conversations: Gemini and Ollama number calls per step).
 */
export interface ApprovalsData {
  approvals: Record<string, ApprovalView>;
  /** Batch id → call id → the key of the call's question. */
  approvalKeys: Record<string, Record<string, string>>;
}

export const emptyApprovalsData: ApprovalsData = { approvals: {}, approvalKeys: {} };

type ApprovalEndEvent = Extract<HostAgentEvent, { type: 'approval/end' }>;

/**
 * Pure: where a question is kept — its approvalId, or for one journaled before questions had an id,
 * its batch and call (a batch id is unique, so two conversations' questions never meet).
 */
export function approvalKeyOf(question: Pick<ApprovalView, 'approvalId' | 'batchId' | 'callId'>): string {
  return question.approvalId ?? `before-approval-ids:${question.batchId}:${question.callId}`;
}

/** Pure: the question asked about one call of one batch, if any (what its row shows). */
export function approvalOfCall(
  data: ApprovalsData,
  call: { batchId: string; callId: string },
): ApprovalView | undefined {
  const ofBatch = data.approvalKeys[call.batchId];
  // Own keys only: a model may name a call `constructor`.
  const key = ofBatch !== undefined && Object.hasOwn(ofBatch, call.callId) ? ofBatch[call.callId] : undefined;
  return key === undefined ? undefined : data.approvals[key];
}

/**
 * Pure: the approvals data after one host event. `approval/end` is final whatever arrived before
 * it; a request never reopens an ended question; a call or turn that ends while its question is
 * still open closes it as `unanswered` (the host can no longer receive an answer).
 */
export function reduceApprovals(data: ApprovalsData, event: HostAgentEvent): ApprovalsData {
  switch (event.type) {
    case 'approval/request': {
      const known = data.approvals[approvalKeyOf(event)];
      const asked = {
        name: event.name,
        args: event.args,
        index: event.index,
        requestedAt: event.at,
        ...(event.deviceId !== undefined ? { deviceId: event.deviceId } : {}),
        ...(event.needsPin ? { needsPin: true as const } : {}),
      };
      if (known)
        return known.status === 'waiting' || known.status === 'unanswered' ? data : put(data, { ...known, ...asked });
      return put(data, {
        ...(event.approvalId !== undefined ? { approvalId: event.approvalId } : {}),
        callId: event.callId,
        conversationId: event.conversationId,
        turnId: event.turnId,
        batchId: event.batchId,
        ...asked,
        status: 'waiting',
      });
    }
    case 'approval/end': {
      const known = data.approvals[approvalKeyOf(event)];
      const base: ApprovalView = known ?? {
        ...(event.approvalId !== undefined ? { approvalId: event.approvalId } : {}),
        callId: event.callId,
        conversationId: event.conversationId,
        turnId: event.turnId,
        batchId: event.batchId,
        index: -1,
        name: event.name ?? '',
        args: {},
        ...(event.deviceId !== undefined ? { deviceId: event.deviceId } : {}),
        status: 'waiting',
      };
      return put(data, {
        ...base,
        status: statusOfEnd(event),
        endedAt: event.at,
        ...(event.remembered === true ? { remembered: true } : {}),
      });
    }
    case 'tool/end': {
      const known = approvalOfCall(data, event);
      return known?.status === 'waiting' ? put(data, { ...known, status: 'unanswered', endedAt: event.at }) : data;
    }
    case 'turn/end':
      return closeOpenQuestions(data, event);
    default:
      return data;
  }
}

/** Pure: the outcome an `approval/end` stands for. */
export function statusOfEnd(event: Pick<ApprovalEndEvent, 'approved' | 'why'>): ApprovalStatus {
  if (event.why === 'timeout') return 'timeout';
  if (event.why === 'aborted') return 'stopped';
  if (event.why === 'standing') return 'standing';
  return event.approved ? 'allowed' : 'denied';
}

/** Pure: the questions still open, oldest first (the header's indicator and where it leads). */
export function openApprovals(data: ApprovalsData): ApprovalView[] {
  return Object.values(data.approvals)
    .filter((approval) => approval.status === 'waiting')
    .sort((left, right) => (left.requestedAt ?? 0) - (right.requestedAt ?? 0));
}

/** Pure: how many questions are open (a number, so a selector of it stays quiet). */
export function countOpenApprovals(data: ApprovalsData): number {
  let count = 0;
  for (const approval of Object.values(data.approvals)) if (approval.status === 'waiting') count += 1;
  return count;
}

/** Drops every question of one conversation (before its journal is folded again). */
export function dropConversationApprovals(data: ApprovalsData, conversationId: string): ApprovalsData {
  const kept = Object.entries(data.approvals).filter(([, approval]) => approval.conversationId !== conversationId);
  if (kept.length === Object.keys(data.approvals).length) return data;
  const dropped = new Set(
    Object.values(data.approvals)
      .filter((approval) => approval.conversationId === conversationId)
      .map((approval) => approval.batchId),
  );
  return {
    approvals: Object.fromEntries(kept),
    approvalKeys: Object.fromEntries(Object.entries(data.approvalKeys).filter(([batchId]) => !dropped.has(batchId))),
  };
}

function closeOpenQuestions(data: ApprovalsData, event: Extract<HostAgentEvent, { type: 'turn/end' }>): ApprovalsData {
  let approvals = data.approvals;
  for (const approval of Object.values(data.approvals)) {
    if (
      approval.turnId !== event.turnId ||
      approval.conversationId !== event.conversationId ||
      approval.status !== 'waiting'
    )
      continue;
    approvals = { ...approvals, [approvalKeyOf(approval)]: { ...approval, status: 'unanswered', endedAt: event.at } };
  }
  return approvals === data.approvals ? data : { approvals, approvalKeys: data.approvalKeys };
}

function put(data: ApprovalsData, approval: ApprovalView): ApprovalsData {
  const key = approvalKeyOf(approval);
  const ofBatch = data.approvalKeys[approval.batchId];
  return {
    approvals: { ...data.approvals, [key]: approval },
    approvalKeys:
      ofBatch?.[approval.callId] === key
        ? data.approvalKeys
        : { ...data.approvalKeys, [approval.batchId]: { ...ofBatch, [approval.callId]: key } },
  };
}
