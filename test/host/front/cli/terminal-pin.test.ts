import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { askOnTerminal, type TerminalAnswer } from '../../../../host/front/cli/terminal-approvals.ts';

const LOCK_QUESTION: AgentEvent = {
  type: 'approval/request',
  at: 1,
  conversationId: 'c',
  turnId: 't',
  batchId: 'b',
  callId: 'call-1',
  approvalId: 'q-1',
  index: 0,
  name: 'lock__set',
  args: { device_id: 'lock-1', locked: false },
  deviceId: 'lock-1',
  needsPin: true,
};

describe('askOnTerminal with a call that needs the PIN', () => {
  it('offers no "always", asks the PIN without echoing it, and asks again after a wrong one', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const answers: TerminalAnswer[] = [];
    let listener: ((event: AgentEvent) => void) | undefined;
    const replies = [
      { accepted: false, message: 'Wrong PIN: 4 tries left before PIN approvals lock for 10 minutes.' },
      { accepted: true },
    ];
    let answered!: () => void;
    const done = new Promise<void>((resolve) => (answered = resolve));
    const stop = askOnTerminal({
      input,
      output,
      subscribe: (next) => {
        listener = next;
        return () => undefined;
      },
      answer: async (answer) => {
        answers.push(answer);
        if (answers.length === 2) answered();
        return replies.shift()!;
      },
      signal: new AbortController().signal,
    });
    listener!(LOCK_QUESTION);
    const typed = async (line: string, until: RegExp) => {
      while (!until.test(shown)) await new Promise((resolve) => output.once('data', resolve));
      input.write(`${line}\n`);
    };
    await typed('y', /Allow it\?/);
    await typed('1111', /PIN \(not shown\): $/);
    await typed('y', /Wrong PIN: 4 tries left[\s\S]*Allow it\?/);
    await typed('2468', /Wrong PIN[\s\S]*PIN \(not shown\): $/);
    await done;
    stop();
    expect(answers).toEqual([
      { approvalId: 'q-1', approved: true, remember: false, pin: '1111' },
      { approvalId: 'q-1', approved: true, remember: false, pin: '2468' },
    ]);
    expect(shown).not.toContain('always allow');
    expect(shown).not.toContain('1111');
    expect(shown).not.toContain('2468');
  });
});
