import { describe, expect, it } from 'vitest';
import { createToolApi } from '../../../core/batch/create-tool-api.ts';
import { ToolError, type ToolErrorReason } from '../../../core/tools/tool-error.ts';
import type { AuthorizationContext, ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { runBatch } from '../../../core/batch/run-batch.ts';

const callers: string[] = [];

/** Grants lamp-1 only; everything else (a missing device_id included) is refused: never fail-open. */
const lampSet: ToolDefinition = {
  name: 'lamp__set',
  description: 'Switch a lamp.',
  parameters: {
    type: 'object',
    properties: { device_id: { type: 'string' }, on: { type: 'boolean' } },
    required: ['device_id', 'on'],
  },
  parallelSafe: true,
  canUse: (context: AuthorizationContext, args) => {
    callers.push(context.caller);
    return args.device_id === 'lamp-1'
      ? null
      : new ToolError({ reason: 'unauthorized', field: 'device_id', detail: `not allowed: ${String(args.device_id)}` });
  },
  handler: (args) => ({ device_id: args.device_id, on: args.on }),
};

const brokenGate: ToolDefinition = {
  name: 'relay__set',
  description: 'A tool whose permission check fails.',
  parameters: { type: 'object', properties: {} },
  serial: true,
  canUse: () => {
    throw new Error('grant table unreadable');
  },
  handler: () => 'should never run',
};

const tools = [lampSet, brokenGate];
const api = createToolApi({ tools: () => tools, newId: () => 'api-call' });

async function batchOutcome(name: string, args: Record<string, unknown>) {
  const [result] = await runBatch({
    scope: { conversationId: 'conv', turnId: 'turn', signal: new AbortController().signal, emit: () => {} },
    batchId: 'b1',
    step: 1,
    calls: [{ index: 0, callId: 'c0', name, args, tool: tools.find((tool) => tool.name === name) }],
    pipeline: { defaultTimeoutMs: 10_000 },
  });
  return result?.outcome;
}

/** Hand-written expectations: what the gate says, and how the batch ends. */
const cases: {
  label: string;
  name: string;
  args: Record<string, unknown>;
  canUse: ToolErrorReason | null;
  batch: ToolErrorReason | 'ok';
}[] = [
  { label: 'granted', name: 'lamp__set', args: { device_id: 'lamp-1', on: true }, canUse: null, batch: 'ok' },
  {
    label: 'refused by canUse',
    name: 'lamp__set',
    args: { device_id: 'lamp-9', on: true },
    canUse: 'unauthorized',
    batch: 'unauthorized',
  },
  {
    label: 'refused without device_id (never fail-open)',
    name: 'lamp__set',
    args: { on: true },
    canUse: 'unauthorized',
    batch: 'unauthorized',
  },
  { label: 'canUse throws', name: 'relay__set', args: {}, canUse: 'unauthorized', batch: 'unauthorized' },
  {
    label: 'unknown tool',
    name: 'lamp__sett',
    args: { device_id: 'lamp-1', on: true },
    canUse: 'not_found',
    batch: 'not_found',
  },
  { label: 'missing required arg', name: 'lamp__set', args: { device_id: 'lamp-1' }, canUse: null, batch: 'required' },
];

describe('ToolApi', () => {
  for (const testCase of cases) {
    it(`agrees with the batch path when ${testCase.label}`, async () => {
      const refusal = await api.canUse({ conversationId: 'conv', caller: 'sequences' }, testCase.name, testCase.args);
      const outcome = await batchOutcome(testCase.name, testCase.args);
      const viaApi = await api.call(
        { conversationId: 'conv', caller: 'sequences', signal: new AbortController().signal },
        testCase.name,
        testCase.args,
      );

      expect(refusal?.reason ?? null).toBe(testCase.canUse);
      expect(outcome?.ok ? 'ok' : outcome?.error.reason).toBe(testCase.batch);
      expect(viaApi.ok ? 'ok' : viaApi.error.reason).toBe(testCase.batch);
      // The agreement itself: a refusal by the gate is exactly what the batch answers; a grant is never an authorisation failure there.
      if (refusal)
        expect(outcome).toMatchObject({ ok: false, error: { reason: refusal.reason, detail: refusal.detail } });
      else expect(['unauthorized', 'not_found']).not.toContain(outcome?.ok ? 'ok' : outcome?.error.reason);
    });
  }

  it('tells the gate who is calling: the agent on the batch path, the plugin through the ToolAPI', async () => {
    callers.length = 0;
    await batchOutcome('lamp__set', { device_id: 'lamp-1', on: true });
    await api.canUse({ conversationId: 'conv', caller: 'sequences' }, 'lamp__set', { device_id: 'lamp-1', on: true });
    expect(callers).toEqual(['agent', 'sequences']);
  });

  it('lists every declaration with parallelSafe and serial filled in, and finds one by name', () => {
    expect(api.list().map((tool) => [tool.name, tool.parallelSafe, tool.serial])).toEqual([
      ['lamp__set', true, false],
      ['relay__set', false, true],
    ]);
    expect(api.byName('relay__set')).toMatchObject({ name: 'relay__set', parallelSafe: false, serial: true });
    expect(api.byName('lamp__sett')).toBeUndefined();
    expect(api.list()[0]).not.toHaveProperty('handler');
  });

  it('sees tools that appear after it was built (a live source)', () => {
    const live: ToolDefinition[] = [];
    const liveApi = createToolApi({ tools: () => live });
    expect(liveApi.byName('late')).toBeUndefined();
    live.push({ name: 'late', description: '', parameters: { type: 'object' }, handler: () => 1 });
    expect(liveApi.byName('late')).toMatchObject({ name: 'late', parallelSafe: false, serial: false });
  });
});
