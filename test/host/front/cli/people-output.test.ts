import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { PeopleOutput } from '../../../../host/front/cli/people-output.ts';
import { TerminalScreen } from './terminal-screen.ts';

const base = { conversationId: 'c1', turnId: 't1' };
const calls = [
  { index: 0, callId: 'a', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
  { index: 1, callId: 'b', name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
  { index: 2, callId: 'c', name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
];

function event(fields: Record<string, unknown>): AgentEvent {
  return { at: 0, ...base, ...fields } as AgentEvent;
}

const batchStart = event({
  type: 'batch/start',
  step: 1,
  batchId: 'b1',
  mode: 'parallel',
  reason: 'parallel: all 3 calls are parallel-safe',
  calls,
});
const toolStart = (index: number) =>
  event({ type: 'tool/start', batchId: 'b1', callId: calls[index]!.callId, name: calls[index]!.name, index });
const toolEnd = (index: number, fields: Record<string, unknown>) =>
  event({
    type: 'tool/end',
    batchId: 'b1',
    callId: calls[index]!.callId,
    name: calls[index]!.name,
    index,
    queuedMs: 0,
    startedAt: 0,
    endedAt: 0,
    ...fields,
  });

/** A terminal 200 columns wide with a hand-driven clock and ticker. */
function terminal() {
  const screen = new TerminalScreen();
  let now = 1000;
  let tick: (() => void) | undefined;
  const output = new PeopleOutput({
    write: (text) => screen.write(text),
    terminal: { columns: () => 200 },
    now: () => now,
    every: (_ms, callback) => {
      tick = callback;
      return () => (tick = undefined);
    },
  });
  return {
    screen,
    output,
    advance(ms: number) {
      now += ms;
      tick?.();
    },
    ticking: () => tick !== undefined,
  };
}

describe('ask’s output for people', () => {
  it('prints each batch once, rows 1-based in index order with full arguments and outcomes in words', () => {
    let written = '';
    const output = new PeopleOutput({ write: (text) => (written += text) });
    for (const item of [
      event({ type: 'text/delta', step: 1, text: 'Switching both lamps on.' }),
      event({ type: 'message/assistant', step: 1, text: 'Switching both lamps on.', toolCalls: [] }),
      batchStart,
      toolStart(0),
      toolStart(1),
      toolStart(2),
      // Completion order differs from index order: the rows must not.
      toolEnd(2, { ok: true, outcome: 'done', result: { celsius: 21.5 }, runMs: 250 }),
      toolEnd(0, { ok: true, outcome: 'done', result: { on: true }, runMs: 1250, approvalMs: 1000 }),
      toolEnd(1, {
        ok: false,
        outcome: 'unknown',
        error: { reason: 'timeout', detail: 'lamp__set did not finish within 5000 ms' },
        runMs: 5000,
      }),
      event({ type: 'batch/end', batchId: 'b1', wallMs: 5003, executed: 2 }),
      event({ type: 'turn/end', reason: 'done' }),
    ])
      output.handle(item);
    expect(written.split('\n')).toEqual([
      'Switching both lamps on.',
      '┌ batch 1 · parallel — all 3 calls are parallel-safe',
      '│ 1. lamp__set  device_id: "lamp-1", on: true — done · ran 250 ms · waited 1.0 s for you → {"on":true}',
      '│ 2. lamp__set  device_id: "lamp-2", on: true — outcome unknown: timeout: lamp__set did not finish within 5000 ms — the request left but no answer came: the device may have acted · ran 5.0 s',
      '│ 3. thermometer__read  device_id: "thermometer-1" — done · ran 250 ms → {"celsius":21.5}',
      '└ 2 of 3 done in 5.0 s',
      '',
    ]);
  });

  it('on a terminal, draws the rows at once and redraws each in place as its call runs and ends', () => {
    const { screen, output, advance, ticking } = terminal();
    output.handle(batchStart);
    expect(screen.text()).toEqual([
      '┌ batch 1 · parallel — all 3 calls are parallel-safe',
      '│ 1. lamp__set  device_id: "lamp-1", on: true — queued',
      '│ 2. lamp__set  device_id: "lamp-2", on: true — queued',
      '│ 3. thermometer__read  device_id: "thermometer-1" — queued',
    ]);
    output.handle(toolStart(1));
    advance(300);
    expect(screen.text()[2]).toBe('│ 2. lamp__set  device_id: "lamp-2", on: true — running 300 ms');
    advance(1200);
    expect(screen.text()[2]).toBe('│ 2. lamp__set  device_id: "lamp-2", on: true — running 1.5 s');
    output.handle(toolEnd(1, { ok: true, outcome: 'done', result: { on: true }, runMs: 1500 }));
    expect(screen.text()).toEqual([
      '┌ batch 1 · parallel — all 3 calls are parallel-safe',
      '│ 1. lamp__set  device_id: "lamp-1", on: true — queued',
      '│ 2. lamp__set  device_id: "lamp-2", on: true — done · ran 1.5 s → {"on":true}',
      '│ 3. thermometer__read  device_id: "thermometer-1" — queued',
    ]);
    output.handle(event({ type: 'batch/end', batchId: 'b1', wallMs: 1500, executed: 1 }));
    expect(ticking()).toBe(false);
    expect(screen.text().at(-1)).toBe('└ 1 of 3 done in 1.5 s');
    expect(screen.text()).toHaveLength(5);
  });

  it('says a call waits for the person, not that it runs, while its question is open at the prompt', () => {
    const { screen, output, advance } = terminal();
    output.handle(batchStart);
    output.handle(toolStart(0));
    const question = { batchId: 'b1', callId: 'a', approvalId: 'q1' };
    output.handle(
      event({ ...question, at: 1000, type: 'approval/request', index: 0, name: 'lamp__set', args: calls[0]!.args }),
    );
    advance(2000);
    expect(screen.text()[1]).toBe('│ 1. lamp__set  device_id: "lamp-1", on: true — waiting for your answer 2.0 s');
    output.handle(event({ ...question, at: 3000, type: 'approval/end', approved: true, why: 'answered' }));
    advance(300);
    expect(screen.text()[1]).toMatch(/^│ 1\. lamp__set {2}device_id: "lamp-1", on: true — running /);
  });

  it("keeps each row one line when a device's error holds line breaks and terminal commands, so redrawing stays in place", () => {
    const { screen, output } = terminal();
    output.handle(batchStart);
    output.handle(toolStart(0));
    output.handle(
      toolEnd(0, {
        ok: false,
        outcome: 'failed',
        error: { reason: 'failed', detail: 'jammed\n\u001b[2K\u001b[1A│ 2. lamp__set — done\u202e', hint: 'x\ry' },
        runMs: 10,
      }),
    );
    expect(screen.text()).toHaveLength(4);
    expect(screen.text()[1]).toBe(
      '│ 1. lamp__set  device_id: "lamp-1", on: true — failed: failed: jammed\\u000a\\u001b[2K\\u001b[1A│ 2. lamp__set — done\\u202e (x\\u000dy) · ran 10 ms',
    );
    expect(screen.text()[2]).toBe('│ 2. lamp__set  device_id: "lamp-2", on: true — queued');
  });

  it('on a narrow terminal, cuts live rows to its width so redrawing stays in place', () => {
    const screen = new TerminalScreen();
    const output = new PeopleOutput({
      write: (text) => screen.write(text),
      terminal: { columns: () => 30 },
      every: () => () => {},
    });
    output.handle(batchStart);
    output.handle(toolStart(0));
    for (const line of screen.text()) expect(line.length).toBeLessThanOrEqual(29);
    expect(screen.text()).toHaveLength(4);
  });

  it('says what the read-back after a Stop found, and that the turn stopped', () => {
    let written = '';
    const output = new PeopleOutput({ write: (text) => (written += text) });
    output.handle(
      event({
        type: 'device/state',
        deviceId: 'lamp-1',
        tool: 'lamp__get',
        callIds: ['a'],
        result: { on: true, brightness: 100 },
      }),
    );
    output.handle(
      event({
        type: 'device/state',
        deviceId: 'lamp-2',
        tool: 'lamp__get',
        callIds: ['b'],
        error: { reason: 'unauthorized', detail: 'lamp-2: get is not granted' },
      }),
    );
    output.handle(event({ type: 'turn/end', reason: 'aborted' }));
    expect(written).toBe(
      [
        'lamp-1 read after the stop: it is now on, brightness 100 %',
        'lamp-2 could not be read after the stop (unauthorized: lamp-2: get is not granted): it may have acted',
        'Stopped.',
        '',
      ].join('\n'),
    );
  });

  it('closes a turn with how full the model’s window was at its last request, and prints a context warning', () => {
    let written = '';
    const output = new PeopleOutput({ write: (text) => (written += text) });
    const header = (fields: Record<string, unknown>) =>
      event({ type: 'request/header', step: 1, tools: [], systemPromptHash: 'a', requestHash: 'b', ...fields });
    output.handle(header({ contextTokens: 8192, estimatedTokens: 4100 }));
    output.handle(event({ type: 'text/delta', step: 1, text: 'Done.' }));
    output.handle(
      event({
        type: 'context/warning',
        step: 1,
        message: 'ollama:llama3.1 kept only 4,096 tokens of this request',
      }),
    );
    output.handle(header({ step: 2, contextTokens: 8192, estimatedTokens: 5210, omittedTurns: 14 }));
    output.handle(event({ type: 'turn/end', reason: 'done' }));
    // A turn whose window is not known says nothing of it.
    output.handle(header({ estimatedTokens: 100 }));
    output.handle(event({ type: 'turn/end', reason: 'done' }));
    expect(written).toBe(
      [
        'Done.',
        '⚠ ollama:llama3.1 kept only 4,096 tokens of this request',
        'Context: 5,210 of 8,192 tokens · 14 earlier turns not sent',
        '',
      ].join('\n'),
    );
  });
});
