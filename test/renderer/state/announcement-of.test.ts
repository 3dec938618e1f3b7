import { describe, expect, it } from 'vitest';
import { announcementOf } from '../../../renderer/state/announcement-of.ts';
import { event } from '../helpers/agent-events.ts';

describe('announcementOf', () => {
  it('speaks a reply once it is complete, never a delta', () => {
    expect(announcementOf(event({ type: 'text/delta', at: 1, step: 1, text: 'On' }), 'c1')).toBeUndefined();
    expect(
      announcementOf(event({ type: 'message/assistant', at: 2, step: 1, text: 'On it.', toolCalls: [] }), 'c1'),
    ).toEqual({ text: 'Home Agent: On it.', urgent: false });
  });

  it('speaks progress, outcomes in words and the state after a stop, politely', () => {
    expect(
      announcementOf(
        event({
          type: 'tool/end',
          at: 3,
          batchId: 'b1',
          callId: 'a',
          name: 'lamp__set',
          index: 0,
          ok: false,
          outcome: 'unknown',
          error: { reason: 'aborted' },
          queuedMs: 0,
          runMs: 5,
          startedAt: 0,
          endedAt: 5,
        }),
        'c1',
      ),
    ).toEqual({
      text: 'lamp__set outcome unknown: the request left but no answer came: the device may have acted.',
      urgent: false,
    });
    expect(announcementOf(event({ type: 'batch/end', at: 4, batchId: 'b1', wallMs: 9, executed: 2 }), 'c1')).toEqual({
      text: '2 calls done.',
      urgent: false,
    });
    expect(announcementOf(event({ type: 'turn/end', at: 5, reason: 'aborted' }), 'c1')).toEqual({
      text: 'Stopped.',
      urgent: false,
    });
  });

  it('speaks questions and errors urgently; a question from any conversation, the rest only from the open one', () => {
    const question = event({
      type: 'approval/request',
      at: 1,
      conversationId: 'other',
      batchId: 'b1',
      callId: 'a',
      index: 0,
      name: 'relay__set',
      args: {},
    });
    expect(announcementOf(question, 'c1')).toEqual({
      text: 'relay__set needs your approval: Allow or Deny it in the batch panel.',
      urgent: true,
    });
    expect(announcementOf(event({ type: 'agent/error', at: 1, message: 'the model is gone' }), 'c1')).toEqual({
      text: 'Error: the model is gone',
      urgent: true,
    });
    expect(
      announcementOf(event({ type: 'agent/error', at: 1, conversationId: 'other', message: 'x' }), 'c1'),
    ).toBeUndefined();
  });
});
