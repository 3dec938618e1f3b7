import { describe, expect, it } from 'vitest';
import { runToolCall, type ToolCallPipeline } from '../../../core/batch/run-tool-call.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import type { ToolOutcome } from '../../../core/tools/tool-result.ts';
import { parseToolArguments } from '../../../core/stream/parse-tool-arguments.ts';

interface Case {
  label: string;
  name?: string;
  argumentsText: string;
  canUse?: 'refuse' | 'throw';
  approve?: boolean;
  handlerThrows?: boolean;
  /** Which steps ran, in order (hand-written from the pipeline order). */
  ran: string[];
  reason: string;
}

// The lamp needs {on: boolean}; "x" is not a boolean, so validation would fail if it got that far.
const cases: Case[] = [
  { label: 'an unknown tool', name: 'lamp__sett', argumentsText: '{"on":true}', ran: ['after'], reason: 'not_found' },
  { label: 'arguments that are not JSON', argumentsText: '{"on":tru', ran: ['after'], reason: 'invalid_json' },
  {
    label: 'a refusal by CanUse (before approval and validation)',
    argumentsText: '{"on":"x"}',
    canUse: 'refuse',
    ran: ['canUse', 'after'],
    reason: 'unauthorized',
  },
  {
    label: 'a CanUse that throws',
    argumentsText: '{"on":"x"}',
    canUse: 'throw',
    ran: ['canUse', 'after'],
    reason: 'unauthorized',
  },
  {
    label: 'a denial by the person (before validation)',
    argumentsText: '{"on":"x"}',
    approve: false,
    ran: ['canUse', 'approve', 'after'],
    reason: 'denied',
  },
  { label: 'invalid arguments', argumentsText: '{"on":"x"}', ran: ['canUse', 'approve', 'after'], reason: 'type' },
  { label: 'a missing required argument', argumentsText: '', ran: ['canUse', 'approve', 'after'], reason: 'required' },
  {
    label: 'a handler that throws',
    argumentsText: '{"on":true}',
    handlerThrows: true,
    ran: ['canUse', 'approve', 'handler', 'after'],
    reason: 'failed',
  },
  {
    label: 'a call that succeeds',
    argumentsText: '{"on":"true"}',
    ran: ['canUse', 'approve', 'handler', 'after'],
    reason: 'ok',
  },
];

async function runCase(testCase: Case) {
  const ran: string[] = [];
  const lamp: ToolDefinition = {
    name: 'lamp__set',
    description: 'Switch the lamp.',
    parameters: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
    canUse: () => {
      ran.push('canUse');
      if (testCase.canUse === 'throw') throw new Error('grant table unreadable');
      return testCase.canUse === 'refuse' ? new ToolError({ reason: 'unauthorized', detail: 'not this lamp' }) : null;
    },
    handler: (args) => {
      ran.push('handler');
      if (testCase.handlerThrows) throw new Error('relay stuck');
      return { on: args.on };
    },
  };
  const pipeline: ToolCallPipeline = {
    defaultTimeoutMs: 10_000,
    approve: () => {
      ran.push('approve');
      return testCase.approve ?? true;
    },
    afterTool: [
      () => {
        ran.push('after');
      },
    ],
  };
  const parsed = parseToolArguments(testCase.argumentsText);
  const name = testCase.name ?? 'lamp__set';
  const tool = name === 'lamp__set' ? lamp : undefined;
  const run = await runToolCall({
    pipeline,
    call: parsed.ok
      ? { index: 0, callId: 'c0', name, args: parsed.args, tool }
      : { index: 0, callId: 'c0', name, args: {}, argumentsProblem: parsed.detail, tool },
    identity: { conversationId: 'conv', turnId: 'turn', batchId: 'b', callId: 'c0', index: 0 },
    authorization: { conversationId: 'conv', caller: 'agent' },
    signal: new AbortController().signal,
  });
  return { ran, outcome: run.outcome };
}

describe('runToolCall', () => {
  for (const testCase of cases) {
    it(`follows look-up → CanUse → approval → validation → handler → after-tool for ${testCase.label}`, async () => {
      const { ran, outcome } = await runCase(testCase);
      expect(ran).toEqual(testCase.ran);
      expect(outcome.ok ? 'ok' : outcome.error.reason).toBe(testCase.reason);
    });
  }

  it('names the tool in an invalid_json error and asks for one JSON object', async () => {
    const { outcome } = await runCase(cases[1] as Case);
    expect(outcome).toMatchObject({ ok: false, error: { reason: 'invalid_json' } });
    if (!outcome.ok) {
      expect(outcome.error.detail).toMatch(/^lamp__set: the arguments are not valid JSON/);
      expect(outcome.error.hint).toContain('lamp__set');
    }
  });

  it('hands the handler the coerced arguments', async () => {
    const { outcome } = await runCase(cases[8] as Case);
    expect(outcome).toEqual({ ok: true, value: { on: true } });
  });
});

describe('after-tool hooks', () => {
  function runWithHooks(hooks: ToolCallPipeline['afterTool'], handlerValue: unknown) {
    const reading: ToolDefinition = {
      name: 'thermo__read',
      description: '',
      parameters: { type: 'object' },
      handler: () => handlerValue,
    };
    return runToolCall({
      pipeline: { defaultTimeoutMs: 10_000, afterTool: hooks },
      call: { index: 0, callId: 'c0', name: 'thermo__read', args: {}, tool: reading },
      identity: { conversationId: 'conv', turnId: 'turn', batchId: 'b', callId: 'c0', index: 0 },
      authorization: { conversationId: 'conv', caller: 'agent' },
      signal: new AbortController().signal,
    });
  }

  it('see the structured value the handler returned, not a string', async () => {
    const value = { celsius: 21.5, sensor: { id: 't-1' } };
    const seen: ToolOutcome[] = [];
    await runWithHooks([(info) => void seen.push(info.outcome)], value);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({ ok: true, value: { celsius: 21.5, sensor: { id: 't-1' } } });
    if (seen[0]?.ok) expect(seen[0].value).toBe(value);
  });

  it('may rewrite the structured value, and later hooks see the rewrite', async () => {
    const seen: unknown[] = [];
    const run = await runWithHooks(
      [
        (info) =>
          info.outcome.ok ? { ok: true, value: { ...(info.outcome.value as object), fahrenheit: 70.7 } } : undefined,
        (info) => void seen.push(info.outcome),
      ],
      { celsius: 21.5 },
    );
    expect(seen).toEqual([{ ok: true, value: { celsius: 21.5, fahrenheit: 70.7 } }]);
    expect(run.outcome).toEqual({ ok: true, value: { celsius: 21.5, fahrenheit: 70.7 } });
  });

  it('may turn a success into a failure, and a hook that throws fails the call', async () => {
    const refused = await runWithHooks(
      [() => ({ ok: false, error: { reason: 'failed', detail: 'reading out of range' } })],
      { celsius: 999 },
    );
    expect(refused.outcome).toEqual({ ok: false, error: { reason: 'failed', detail: 'reading out of range' } });
    const broken = await runWithHooks(
      [
        () => {
          throw new Error('hook bug');
        },
      ],
      { celsius: 1 },
    );
    expect(broken.outcome).toMatchObject({ ok: false, error: { reason: 'failed' } });
  });
});
