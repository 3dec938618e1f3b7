import { describe, expect, it } from 'vitest';
import {
  countOpenApprovals,
  openApprovals,
  reduceApprovals,
  statusOfEnd,
  emptyApprovalsData,
  approvalOfCall,
} from '../../../renderer/state/approvals-reducer.ts';
import { emptyFoldedData, foldEvent, foldEvents, replaceConversation } from '../../../renderer/state/fold-event.ts';
import {
  event,
  RELAY_QUESTION,
  relayApprovalTurn,
  relayArgs,
  relayQuestionAsked,
  relayQuestionEnded,
  withoutApprovalIds,
} from '../helpers/agent-events.ts';

describe('reduceApprovals', () => {
  it('opens a question with the tool name and its arguments while the host waits', () => {
    const view = foldEvents(emptyFoldedData, relayQuestionAsked());
    expect(view.approvals[RELAY_QUESTION]).toEqual({
      approvalId: RELAY_QUESTION,
      callId: 'relay-call',
      conversationId: 'c1',
      turnId: 't1',
      batchId: 'rb1',
      index: 0,
      name: 'relay__set',
      args: { device_id: 'relay-1', channel: 2, on: true },
      status: 'waiting',
      requestedAt: 1102,
    });
    expect(countOpenApprovals(view)).toBe(1);
    // The batch row itself is still the running call it was.
    expect(view.batches.rb1?.calls.map((row) => row.status)).toEqual(['running']);
  });

  it('closes the question with how it ended: allowed, denied, not answered in time, stopped', () => {
    const cases = [
      [{ approved: true, why: 'answered' }, 'allowed'],
      [{ approved: false, why: 'answered' }, 'denied'],
      [{ approved: false, why: 'timeout' }, 'timeout'],
      [{ approved: false, why: 'aborted' }, 'stopped'],
    ] as const;
    for (const [answer, status] of cases) {
      const view = foldEvents(emptyFoldedData, relayApprovalTurn(answer));
      expect([answer, view.approvals[RELAY_QUESTION]?.status, view.approvals[RELAY_QUESTION]?.endedAt]).toEqual([
        answer,
        status,
        2300,
      ]);
      expect(countOpenApprovals(view)).toBe(0);
    }
  });

  it('shows a question whose end the journal holds as ended, never as open, when the conversation is reloaded', () => {
    const journal = relayApprovalTurn({ approved: false, why: 'answered' });
    const live = foldEvents(emptyFoldedData, journal);
    const reloaded = replaceConversation(foldEvents(emptyFoldedData, relayQuestionAsked()), {
      conversationId: 'c1',
      events: journal,
    });
    expect(reloaded.approvals[RELAY_QUESTION]?.status).toBe('denied');
    expect(reloaded).toEqual(live);
  });

  it('shows a question of a finished turn whose end was never journaled as not answered', () => {
    const view = foldEvents(emptyFoldedData, relayApprovalTurn('none'));
    expect(view.approvals[RELAY_QUESTION]).toMatchObject({ status: 'unanswered', endedAt: 2400 });
    expect(countOpenApprovals(view)).toBe(0);
  });

  it('closes an open question when its turn ends even if its call never reported an end', () => {
    const view = foldEvents(emptyFoldedData, [
      ...relayQuestionAsked(),
      event({ type: 'turn/end', at: 3000, reason: 'error', error: 'host stopped' }),
    ]);
    expect(view.approvals[RELAY_QUESTION]).toMatchObject({ status: 'unanswered', endedAt: 3000 });
  });

  it('keeps a question open when another turn or another conversation ends', () => {
    const otherTurn = event({ type: 'turn/end', at: 3000, turnId: 't0', reason: 'done' });
    const otherConversation = event({ type: 'turn/end', at: 3000, conversationId: 'c2', reason: 'done' });
    const view = foldEvents(emptyFoldedData, [...relayQuestionAsked(), otherTurn, otherConversation]);
    expect(view.approvals[RELAY_QUESTION]?.status).toBe('waiting');
  });

  it('lets approval/end decide, even when the call’s end arrived before it', () => {
    const [toolEnd] = relayApprovalTurn({ approved: false, why: 'timeout' }).filter(
      (entry) => entry.type === 'tool/end',
    );
    const end = relayQuestionEnded({ approved: false, why: 'timeout' });
    const early = foldEvents(emptyFoldedData, [...relayQuestionAsked(), toolEnd!]);
    expect(early.approvals[RELAY_QUESTION]?.status).toBe('unanswered');
    expect(foldEvent(early, end).approvals[RELAY_QUESTION]?.status).toBe('timeout');
  });

  it('never reopens an ended question when a request for it comes again or late', () => {
    const asked = relayQuestionAsked()[5]!;
    const end = relayQuestionEnded({ approved: true, why: 'answered' });
    const view = foldEvents(emptyFoldedData, [end, asked]);
    expect(view.approvals[RELAY_QUESTION]).toMatchObject({
      status: 'allowed',
      name: 'relay__set',
      args: relayArgs,
      index: 0,
    });
    const repeated = foldEvents(emptyFoldedData, [asked, end, asked]);
    expect(repeated.approvals[RELAY_QUESTION]?.status).toBe('allowed');
  });

  it('shows a call a standing approval covered as always allowed, with its tool and device, nobody asked', () => {
    const covered = relayQuestionEnded({ approved: true, why: 'standing', name: 'relay__set', deviceId: 'relay-1' });
    const view = foldEvents(emptyFoldedData, [covered]);
    expect(view.approvals[RELAY_QUESTION]).toMatchObject({
      status: 'standing',
      name: 'relay__set',
      deviceId: 'relay-1',
    });
    expect(countOpenApprovals(view)).toBe(0);
  });

  it('remembers that the person chose Always allow, and the device the request named', () => {
    const asked = { ...relayQuestionAsked()[5]!, deviceId: 'relay-1' } as ReturnType<typeof relayQuestionAsked>[number];
    const end = relayQuestionEnded({ approved: true, why: 'answered', remembered: true });
    const view = foldEvents(emptyFoldedData, [asked, end]);
    expect(view.approvals[RELAY_QUESTION]).toMatchObject({ status: 'allowed', remembered: true, deviceId: 'relay-1' });
  });

  it('keeps a question whose batch was never seen, so it is still counted', () => {
    const view = foldEvents(emptyFoldedData, [relayQuestionAsked()[5]!]);
    expect(view.batches).toEqual({});
    expect(countOpenApprovals(view)).toBe(1);
  });

  it('lists open questions oldest first, across conversations', () => {
    const ask = (conversationId: string, callId: string, at: number) =>
      event({
        type: 'approval/request',
        at,
        conversationId,
        batchId: 'b',
        callId,
        approvalId: `question-${callId}`,
        index: 0,
        name: 'relay__set',
        args: {},
      });
    const data = [ask('c2', 'late', 30), ask('c1', 'early', 10), ask('c3', 'middle', 20)].reduce(
      reduceApprovals,
      emptyApprovalsData,
    );
    expect(openApprovals(data).map((approval) => approval.callId)).toEqual(['early', 'middle', 'late']);
  });

  it('drops only the reloaded conversation’s questions', () => {
    const other = relayQuestionAsked().map((entry) => ({
      ...entry,
      conversationId: 'c2',
      ...('callId' in entry ? { callId: 'other-call' } : {}),
      ...('approvalId' in entry ? { approvalId: 'other-question' } : {}),
    }));
    const live = foldEvents(emptyFoldedData, [...relayQuestionAsked(), ...other]);
    const reloaded = replaceConversation(live, { conversationId: 'c1', events: [] });
    expect(Object.keys(reloaded.approvals)).toEqual(['other-question']);
    expect(approvalOfCall(reloaded, { batchId: 'rb1', callId: 'relay-call' })).toBeUndefined();
  });

  it('returns the same object for events that concern no question', () => {
    const view = foldEvents(emptyFoldedData, relayQuestionAsked());
    expect(reduceApprovals(view, event({ type: 'step/start', at: 5, step: 1 }))).toBe(view);
  });
});

describe('questions by approvalId', () => {
  // Conversation A's and B's calls share an id (Gemini and Ollama number calls per step).
  const question = (conversationId: string, approvalId: string, at: number) =>
    event({
      type: 'approval/request',
      at,
      conversationId,
      turnId: `turn-${conversationId}`,
      batchId: `batch-${conversationId}`,
      callId: 'gemini-0-0',
      approvalId,
      index: 0,
      name: 'relay__set',
      args: { device_id: conversationId === 'A' ? 'relay-1' : 'relay-2', channel: 1, on: true },
    });
  const answered = (conversationId: string, approvalId: string) =>
    event({
      type: 'approval/end',
      at: 50,
      conversationId,
      turnId: `turn-${conversationId}`,
      batchId: `batch-${conversationId}`,
      callId: 'gemini-0-0',
      approvalId,
      approved: true,
      why: 'answered',
    });

  it('keeps apart two conversations’ questions whose calls share an id, and ends only the one answered', () => {
    const asked = foldEvents(emptyFoldedData, [question('A', 'qa', 10), question('B', 'qb', 20)]);
    expect(countOpenApprovals(asked)).toBe(2);
    expect(openApprovals(asked).map((approval) => [approval.approvalId, approval.args.device_id])).toEqual([
      ['qa', 'relay-1'],
      ['qb', 'relay-2'],
    ]);
    const view = foldEvent(asked, answered('A', 'qa'));
    expect([view.approvals.qa?.status, view.approvals.qb?.status]).toEqual(['allowed', 'waiting']);
    // Each row finds its own question by its batch and call.
    expect(approvalOfCall(view, { batchId: 'batch-A', callId: 'gemini-0-0' })?.approvalId).toBe('qa');
    expect(approvalOfCall(view, { batchId: 'batch-B', callId: 'gemini-0-0' })).toMatchObject({
      approvalId: 'qb',
      status: 'waiting',
      args: { device_id: 'relay-2' },
    });
    expect(countOpenApprovals(view)).toBe(1);
  });

  it('folds a journal written before questions had an approvalId, each question found by its batch and call', () => {
    for (const [answer, status] of [
      [{ approved: true, why: 'answered' }, 'allowed'],
      [{ approved: false, why: 'timeout' }, 'timeout'],
      ['none', 'unanswered'],
    ] as const) {
      const view = foldEvents(emptyFoldedData, withoutApprovalIds(relayApprovalTurn(answer)));
      const approval = approvalOfCall(view, { batchId: 'rb1', callId: 'relay-call' });
      expect([answer, approval?.status, approval?.name, approval && 'approvalId' in approval]).toEqual([
        answer,
        status,
        'relay__set',
        false,
      ]);
      expect(Object.keys(view.approvals)).toHaveLength(1);
      expect(countOpenApprovals(view)).toBe(0);
      expect(replaceConversation(view, { conversationId: 'c1', events: [] }).approvals).toEqual({});
    }
    // Open while its turn runs, like any question.
    const open = foldEvents(emptyFoldedData, withoutApprovalIds(relayQuestionAsked()));
    expect(approvalOfCall(open, { batchId: 'rb1', callId: 'relay-call' })?.status).toBe('waiting');
  });
});

describe('statusOfEnd', () => {
  it('names a timeout and an abort by their cause whatever approved says', () => {
    expect(statusOfEnd({ approved: true, why: 'timeout' })).toBe('timeout');
    expect(statusOfEnd({ approved: true, why: 'aborted' })).toBe('stopped');
  });
});
