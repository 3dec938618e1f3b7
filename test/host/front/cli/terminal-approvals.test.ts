import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { approvalQuestion, askOnTerminal } from '../../../../host/front/cli/terminal-approvals.ts';

const scope = { at: 0, conversationId: 'c1', turnId: 't1' };

// Questions are named by their approvalId; their call ids are all alike, as Gemini's and Ollama's
// adapters make them in two conversations waiting at the same step.
function request(approvalId: string, name: string): AgentEvent {
  return {
    ...scope,
    type: 'approval/request',
    batchId: 'b1',
    callId: 'gemini-0-0',
    approvalId,
    index: 0,
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
  const answers: { approvalId: string; approved: boolean }[] = [];
  const onAnswer = new Set<() => void>();
  const stop = askOnTerminal({
    input,
    output,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    answer: async (answer) => {
      answers.push({ approvalId: answer.approvalId, approved: answer.approved });
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
    /** Resolves once the screen shows `text` (event-driven: on each write). */
    shows: (text: string) =>
      new Promise<void>((resolve) => {
        if (screen.includes(text)) return resolve();
        const check = () => {
          if (!screen.includes(text)) return;
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
      'display__show on display-1 wants to run with {"device_id":"display-1","text":"Door \\u202edekcolnu\\u001b[2K\\r"}.\nAllow it? [y/N, a = always allow display__show on display-1] ',
    );
  });
});
