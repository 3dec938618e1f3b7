import { describe, expect, it } from 'vitest';
import { emptyFoldedData, foldEvent, foldEvents, replaceConversation } from '../../../renderer/state/fold-event.ts';
import { event, skeletonTurn } from '../helpers/agent-events.ts';

describe('foldEvent', () => {
  it('shows the user message, then the assistant text of each step, authoritative over its deltas', () => {
    const view = foldEvents(emptyFoldedData, skeletonTurn());
    expect(view.turnOrder).toEqual({ c1: ['t1'] });
    expect(view.turns.t1).toEqual({
      id: 't1',
      conversationId: 'c1',
      userText: 'Lamps on, and how warm is it?',
      model: 'scripted',
      status: 'done',
      startedAt: 1000,
      endedAt: 1313,
      items: [
        { kind: 'assistant', step: 0, text: 'On it.', final: true },
        { kind: 'batch', batchId: 'b1' },
        { kind: 'assistant', step: 1, text: 'Done.', final: true },
      ],
    });
  });

  it('streams text/delta into one growing assistant message before message/assistant arrives', () => {
    const view = foldEvents(emptyFoldedData, skeletonTurn().slice(0, 5));
    expect(view.turns.t1?.items).toEqual([{ kind: 'assistant', step: 0, text: 'On it.', final: false }]);
    expect(view.turns.t1?.status).toBe('running');
  });

  it('keeps batch rows in index order although tool/end events arrived 2, 1, 0', () => {
    const view = foldEvents(emptyFoldedData, skeletonTurn());
    const batch = view.batches.b1;
    expect(batch?.calls.map((row) => [row.index, row.callId, row.ok])).toEqual([
      [0, 'call-a', true],
      [1, 'call-b', false],
      [2, 'call-c', true],
    ]);
    expect(batch?.calls[1]).toEqual({
      index: 1,
      callId: 'call-b',
      name: 'lamp__set',
      args: { device_id: 'lamp-2', on: true },
      status: 'done',
      runningSince: 1103,
      ok: false,
      error: { reason: 'device_offline', detail: 'lamp-2 did not answer' },
      queuedMs: 3,
      runMs: 97,
      startedAt: 1103,
      endedAt: 1200,
    });
    expect([batch?.mode, batch?.reason, batch?.wallMs, batch?.executed, batch?.sequence]).toEqual([
      'parallel',
      'parallel',
      201,
      3,
      1,
    ]);
  });

  it('orders rows by index when batch/start lists the calls out of order', () => {
    const view = foldEvent(
      emptyFoldedData,
      event({
        type: 'batch/start',
        at: 1,
        step: 0,
        batchId: 'b9',
        mode: 'serial',
        reason: 'serial: lamp__set declares serial',
        calls: [
          { index: 2, callId: 'z', name: 'c', args: {} },
          { index: 0, callId: 'x', name: 'a', args: {} },
          { index: 1, callId: 'y', name: 'b', args: {} },
        ],
      }),
    );
    expect(view.batches.b9?.calls.map((row) => row.callId)).toEqual(['x', 'y', 'z']);
    expect(view.batches.b9?.reason).toBe('serial: lamp__set declares serial');
  });

  it('places a call that batch/start did not declare at its index', () => {
    const start = event({
      type: 'batch/start',
      at: 1,
      step: 0,
      batchId: 'b1',
      mode: 'parallel',
      reason: 'parallel',
      calls: [
        { index: 0, callId: 'x0', name: 'a', args: {} },
        { index: 2, callId: 'x2', name: 'a', args: {} },
      ],
    });
    const view = foldEvents(emptyFoldedData, [
      start,
      event({ type: 'tool/start', at: 2, batchId: 'b1', callId: 'x1', name: 'relay__set', index: 1 }),
    ]);
    expect(view.batches.b1?.calls.map((row) => [row.callId, row.status])).toEqual([
      ['x0', 'queued'],
      ['x1', 'running'],
      ['x2', 'queued'],
    ]);
  });

  it('does not turn a finished call back into a running one when its tool/start comes late', () => {
    const [, , , , , , batchStart, , , , , , toolEndA] = skeletonTurn();
    const lateStart = event({
      type: 'tool/start',
      at: 1102,
      batchId: 'b1',
      callId: 'call-a',
      name: 'lamp__set',
      index: 0,
    });
    const view = foldEvents(emptyFoldedData, [batchStart!, toolEndA!, lateStart]);
    expect(view.batches.b1?.calls[0]?.status).toBe('done');
  });

  it('lists channel outputs in declared index order whatever order the sends finished in', () => {
    const start = event({
      type: 'batch/start',
      at: 10,
      step: 0,
      batchId: 'b1',
      mode: 'parallel',
      reason: 'parallel',
      calls: [0, 1, 2, 3].map((index) => ({
        index,
        callId: `k${index}`,
        name: index === 3 ? 'output_send__display' : 'output_send__chat',
        args: {},
      })),
    });
    const send = (index: number, channel: string) =>
      event({
        type: 'output/send',
        at: 20 + index,
        batchId: 'b1',
        callId: `k${index}`,
        index,
        channel,
        text: `${channel} ${index}`,
      });
    const view = foldEvents(emptyFoldedData, [
      start,
      send(2, 'chat'),
      send(3, 'display'),
      send(0, 'chat'),
      send(1, 'chat'),
    ]);
    expect(view.channelOutputs.c1?.chat?.map((output) => output.text)).toEqual(['chat 0', 'chat 1', 'chat 2']);
    expect(view.channelOutputs.c1?.display?.map((output) => [output.text, output.batchSequence])).toEqual([
      ['display 3', 1],
    ]);
  });

  it('puts an earlier batch’s outputs before a later batch’s, even with a higher call index', () => {
    const start = (batchId: string, at: number) =>
      event({ type: 'batch/start', at, step: 0, batchId, mode: 'parallel', reason: 'parallel', calls: [] });
    const send = (batchId: string, index: number) =>
      event({
        type: 'output/send',
        at: 50,
        batchId,
        callId: `${batchId}-${index}`,
        index,
        channel: 'chat',
        text: `${batchId}#${index}`,
      });
    const view = foldEvents(emptyFoldedData, [
      start('first', 1),
      start('second', 2),
      send('second', 0),
      send('first', 5),
    ]);
    expect(view.channelOutputs.c1?.chat?.map((output) => output.text)).toEqual(['first#5', 'second#0']);
  });

  it('marks calls that never ended as interrupted when the turn is aborted', () => {
    const events = [...skeletonTurn().slice(0, 9), event({ type: 'turn/end', at: 1500, reason: 'aborted' })];
    const view = foldEvents(emptyFoldedData, events);
    expect(view.batches.b1?.calls.map((row) => row.status)).toEqual(
      ['running', 'queued', 'running'].map(() => 'interrupted'),
    );
    expect([view.batches.b1?.interrupted, view.batches.b1?.endedAt, view.turns.t1?.status]).toEqual([
      true,
      1500,
      'aborted',
    ]);
  });

  it('shows an agent error in the turn and the turn’s end reason with its message', () => {
    const view = foldEvents(emptyFoldedData, [
      event({ type: 'turn/start', at: 1, text: 'hi', model: 'm' }),
      event({ type: 'agent/error', at: 2, message: 'HTTP 401 from the model server' }),
      event({ type: 'turn/end', at: 3, reason: 'error', error: 'HTTP 401 from the model server' }),
    ]);
    expect(view.turns.t1?.items).toEqual([{ kind: 'error', message: 'HTTP 401 from the model server' }]);
    expect([view.turns.t1?.status, view.turns.t1?.error]).toEqual(['error', 'HTTP 401 from the model server']);
  });

  it('returns the same object for events that change nothing, so selectors stay quiet', () => {
    const view = foldEvents(emptyFoldedData, skeletonTurn().slice(0, 1));
    expect(foldEvent(view, event({ type: 'step/start', at: 5, step: 0 }))).toBe(view);
    expect(
      foldEvent(
        view,
        event({
          type: 'tool/end',
          at: 5,
          batchId: 'nope',
          callId: 'x',
          name: 'x',
          index: 0,
          ok: true,
          queuedMs: 0,
          runMs: 0,
          startedAt: 0,
          endedAt: 0,
        }),
      ),
    ).toBe(view);
  });
});

describe('replaceConversation', () => {
  it('rebuilds a conversation from its journal to exactly the view the live stream produced', () => {
    const other = skeletonTurn().map((entry) => ({
      ...entry,
      conversationId: 'c2',
      turnId: 't2',
      ...('batchId' in entry ? { batchId: 'b2' } : {}),
    }));
    const live = foldEvents(emptyFoldedData, [...skeletonTurn(), ...other]);
    const reloaded = replaceConversation(live, { conversationId: 'c1', events: skeletonTurn() });
    expect(reloaded).toEqual(live);
  });

  it('drops what the conversation held before, so a reload never duplicates turns or outputs', () => {
    const send = event({
      type: 'output/send',
      at: 1150,
      batchId: 'b1',
      callId: 'call-c',
      index: 2,
      channel: 'chat',
      text: '21.5 °C',
    });
    const journal = [...skeletonTurn(), send];
    const stale = event({ type: 'turn/start', at: 1, turnId: 'gone', text: 'not in the journal', model: 'm' });
    const live = foldEvents(emptyFoldedData, [stale, ...journal]);
    const twice = replaceConversation(replaceConversation(live, { conversationId: 'c1', events: journal }), {
      conversationId: 'c1',
      events: journal,
    });
    expect(twice.turnOrder.c1).toEqual(['t1']);
    expect(twice.turns.gone).toBeUndefined();
    expect(twice.batchOrder.c1).toEqual(['b1']);
    expect(twice.turns.t1?.items).toHaveLength(3);
    expect(twice.channelOutputs.c1?.chat?.map((output) => output.text)).toEqual(['21.5 °C']);
  });
});
