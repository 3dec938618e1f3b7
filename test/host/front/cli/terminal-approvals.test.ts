import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { approvalQuestion, askOnTerminal } from '../../../../host/front/cli/terminal-approvals.ts';

const scope = { at: 0, conversationId: 'c1', turnId: 't1' };

// Questions are named by their approvalId; their call ids are all alike, as Gemini's and Ollama's
// adapters make them in two conversations waiting at the same step.
function request(approvalId: string, name: string, batch: { batchId?: string; index?: number } = {}): AgentEvent {
  return {
    ...scope,
    type: 'approval/request',
    batchId: batch.batchId ?? 'b1',
    callId: 'gemini-0-0',
    approvalId,
    index: batch.index ?? 0,
    name,
    args: { on: true },
  };
}

function ended(approvalId: string): AgentEvent {
  return {
    ...scope,
    type: 'approval/end',
    batchId: 'b1',
    callId: 'gemini-0-0',
    approvalId,
    approved: false,
    why: 'timeout',
  };
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The terminal's two ends, the events it hears, and the answers it sends. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  const listeners = new Set<(event: AgentEvent) => void>();
  const answers: (
    | { approvalId: string; approved: boolean; args?: Record<string, unknown> }
    | { approvalIds: string[]; approved: boolean }
  )[] = [];
  const onAnswer = new Set<() => void>();
  const stop = askOnTerminal({
    input,
    output,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    answer: async (answer) => {
      answers.push(
        'approvalIds' in answer
          ? { approvalIds: answer.approvalIds, approved: answer.approved }
          : {
              approvalId: answer.approvalId,
              approved: answer.approved,
              ...(answer.args !== undefined ? { args: answer.args } : {}),
            },
      );
      onAnswer.forEach((wake) => wake());
      return { accepted: true };
    },
    signal: new AbortController().signal,
  });
  stops.push(stop);
  return {
    input,
    answers,
    screen: () => screen,
    /** Resolves once an answer was sent. */
    answered: () => new Promise<void>((resolve) => onAnswer.add(resolve)),
    emit: (event: AgentEvent) => listeners.forEach((listener) => listener(event)),
    /** Resolves once the screen shows `text` (`times` times; event-driven: on each write). */
    shows: (text: string, times = 1) =>
      new Promise<void>((resolve) => {
        const seen = () => screen.split(text).length - 1 >= times;
        if (seen()) return resolve();
        const check = () => {
          if (!seen()) return;
          output.off('data', check);
          resolve();
        };
        output.on('data', check);
      }),
  };
}

describe('questions on the terminal', () => {
  it('take a question off the terminal when its call stops waiting, so the answer goes to the next one', async () => {
    const term = terminal();
    term.emit(request('question-a', 'lamp__set'));
    await term.shows('lamp__set wants to run');
    term.emit(request('question-b', 'relay__set'));
    // The first question timed out in the host: nobody waits for its answer any more.
    term.emit(ended('question-a'));
    await term.shows('relay__set wants to run');
    const answered = term.answered();
    term.input.write('y\n');
    await answered;
    expect(term.answers).toEqual([{ approvalId: 'question-b', approved: true }]);
  });

  it('never asks a question whose call stopped waiting while it was still queued', async () => {
    const term = terminal();
    term.emit(request('question-a', 'lamp__set'));
    term.emit(request('question-b', 'relay__set'));
    term.emit(ended('question-b'));
    await term.shows('lamp__set wants to run');
    term.input.write('n\n');
    term.emit(request('question-c', 'display__show'));
    // The next question on the screen is the third: the second was never put.
    await term.shows('display__show wants to run');
    expect(term.screen()).not.toContain('relay__set');
    expect(term.answers).toEqual([{ approvalId: 'question-a', approved: false }]);
  });
});

describe('one answer for a batch on the terminal', () => {
  const fourRelays = (batchId = 'b4') =>
    [0, 1, 2, 3].map((index) => request(`relay-${index}`, 'relay__set', { batchId, index }));

  it('asks once for the calls of one batch that wait, in index order, and `a` allows exactly those', async () => {
    const term = terminal();
    // Arrived out of order; another batch's question waits too and is not covered.
    const [first, second, third, fourth] = fourRelays();
    for (const event of [third!, first!, fourth!, second!]) term.emit(event);
    term.emit(request('other', 'lamp__set', { batchId: 'b9' }));
    await term.shows('Allow all 4 once? [a = allow all, d = deny all, o = one by one]');
    expect(term.screen()).toContain(
      '4 calls of one batch want to run:\n  1. relay__set with {"on":true}\n  2. relay__set with {"on":true}\n  3. relay__set with {"on":true}\n  4. relay__set with {"on":true}',
    );
    const answered = term.answered();
    term.input.write('a\n');
    await answered;
    expect(term.answers).toEqual([{ approvalIds: ['relay-0', 'relay-1', 'relay-2', 'relay-3'], approved: true }]);
    // Next, the other batch's question alone.
    await term.shows('lamp__set wants to run');
  });

  it('`d` denies all of them at once', async () => {
    const term = terminal();
    for (const event of fourRelays().slice(0, 2)) term.emit(event);
    await term.shows('Allow all 2 once?');
    const answered = term.answered();
    term.input.write('d\n');
    await answered;
    expect(term.answers).toEqual([{ approvalIds: ['relay-0', 'relay-1'], approved: false }]);
  });

  it('one by one asks each call with its own y/N', async () => {
    const term = terminal();
    for (const event of fourRelays().slice(0, 2)) term.emit(event);
    await term.shows('Allow all 2 once?');
    term.input.write('o\n');
    await term.shows('relay__set wants to run');
    let answered = term.answered();
    term.input.write('y\n');
    await answered;
    await term.shows('relay__set wants to run', 2);
    answered = term.answered();
    term.input.write('n\n');
    await answered;
    expect(term.answers).toEqual([
      { approvalId: 'relay-0', approved: true },
      { approvalId: 'relay-1', approved: false },
    ]);
  });

  it('takes a call asked alone off the screen when another call of its batch arrives, and asks them together', async () => {
    const term = terminal();
    const [first, second] = fourRelays();
    term.emit(first!);
    await term.shows('relay__set wants to run');
    term.emit(second!);
    await term.shows('Allow all 2 once?');
    const answered = term.answered();
    term.input.write('a\n');
    await answered;
    expect(term.answers).toEqual([{ approvalIds: ['relay-0', 'relay-1'], approved: true }]);
  });

  it('asks again without a call that stopped waiting, so "all" never covers it', async () => {
    const term = terminal();
    for (const event of fourRelays().slice(0, 3)) term.emit(event);
    await term.shows('Allow all 3 once?');
    term.emit(ended('relay-1'));
    await term.shows('Allow all 2 once?');
    const answered = term.answered();
    term.input.write('a\n');
    await answered;
    expect(term.answers).toEqual([{ approvalIds: ['relay-0', 'relay-2'], approved: true }]);
  });
});

describe('editing a call’s arguments on the terminal', () => {
  it('`e` asks for the arguments as JSON, says what is wrong with a line, and sends the edit keeping the device', async () => {
    const term = terminal();
    term.emit({
      ...scope,
      type: 'approval/request',
      batchId: 'b1',
      callId: 'c0',
      approvalId: 'q1',
      index: 0,
      name: 'relay__set',
      deviceId: 'relay-1',
      args: { device_id: 'relay-1', channel: 2, on: true },
    });
    await term.shows('e = edit the arguments');
    term.input.write('e\n');
    await term.shows(
      'New arguments for relay__set as one JSON object (device_id stays "relay-1"), e.g. {"channel":2,"on":true}; empty to go back: ',
    );
    term.input.write('{"channel": 3,\n');
    await term.shows('(not JSON');
    await term.shows('New arguments for relay__set', 2);
    const answered = term.answered();
    term.input.write('{"channel": 3, "on": true}\n');
    await answered;
    expect(term.answers).toEqual([
      { approvalId: 'q1', approved: true, args: { device_id: 'relay-1', channel: 3, on: true } },
    ]);
  });
});

describe('approvalQuestion', () => {
  it('shows arguments that hold controls or bidi characters as escapes, so the person judges what will really be sent', () => {
    const event = {
      ...scope,
      type: 'approval/request',
      batchId: 'b1',
      callId: 'call-1',
      approvalId: 'a1',
      index: 0,
      name: 'display__show',
      deviceId: 'display-1',
      args: { device_id: 'display-1', text: 'Door \u202edekcolnu\u001b[2K\r' },
    } as const satisfies AgentEvent;
    expect(approvalQuestion(event)).toBe(
      'display__show on display-1 wants to run with {"device_id":"display-1","text":"Door \\u202edekcolnu\\u001b[2K\\r"}.\nAllow it? [y/N, a = always allow display__show on display-1, e = edit the arguments] ',
    );
  });
});
