import { describe, expect, it } from 'vitest';
import { decideBatchMode, outputChannelOf } from '../../../core/batch/decide-batch-mode.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { tool } from './batch-helpers.ts';

const safe = (name: string, declarations: Partial<ToolDefinition> = {}) =>
  tool(name, { parallelSafe: true, ...declarations });
const plan = (...tools: (ToolDefinition | string)[]) =>
  decideBatchMode(
    tools.map((item) => (typeof item === 'string' ? { name: item, tool: undefined } : { name: item.name, tool: item })),
  );

describe('decideBatchMode', () => {
  it('runs a single call serially', () => {
    expect(plan(safe('a'))).toEqual({ mode: 'serial', reason: 'serial: a single call' });
  });

  it('runs a batch of parallel-safe calls in parallel', () => {
    expect(plan(safe('a'), safe('b'), safe('c'))).toEqual({
      mode: 'parallel',
      reason: 'parallel: all 3 calls are parallel-safe',
    });
  });

  it('runs the same parallel-safe tool twice in parallel', () => {
    expect(plan(safe('thermo__read'), safe('thermo__read')).mode).toBe('parallel');
  });

  it('makes the whole batch serial when one tool declares serial, and says which', () => {
    expect(plan(safe('a'), safe('lamp__set', { serial: true }), safe('b'))).toEqual({
      mode: 'serial',
      reason: 'serial: lamp__set declares serial',
    });
  });

  it('lets serial win over parallelSafe and over an undeclared tool earlier in the batch', () => {
    expect(plan(tool('undeclared'), safe('lamp__set', { serial: true }))).toEqual({
      mode: 'serial',
      reason: 'serial: lamp__set declares serial',
    });
  });

  it('makes the whole batch serial when one tool is not declared parallel-safe (the default)', () => {
    expect(plan(safe('a'), tool('b'))).toEqual({ mode: 'serial', reason: 'serial: b is not declared parallel-safe' });
    expect(plan(safe('a'), tool('b', { parallelSafe: false }))).toMatchObject({ mode: 'serial' });
  });

  it('makes the batch serial when two calls send to the same output channel', () => {
    expect(plan(safe('output_send__chat'), safe('output_send__chat'))).toEqual({
      mode: 'serial',
      reason: 'serial: two sends to the output channel chat keep their order',
    });
  });

  it('counts a declared outputChannel and the output_send__ name as the same channel', () => {
    expect(plan(safe('display__show', { outputChannel: 'display' }), safe('output_send__display')).mode).toBe('serial');
  });

  it('keeps sends to different channels parallel', () => {
    expect(plan(safe('output_send__chat'), safe('output_send__notifications'), safe('a'))).toEqual({
      mode: 'parallel',
      reason: 'parallel: all 3 calls are parallel-safe',
    });
  });

  it('needs no declaration from an unknown tool (its call ends not_found at once)', () => {
    expect(plan(safe('a'), 'no_such_tool').mode).toBe('parallel');
  });
});

describe('outputChannelOf', () => {
  it('reads the declared channel first, then the output_send__ name', () => {
    expect(outputChannelOf({ name: 'display__show', outputChannel: 'display' })).toBe('display');
    expect(outputChannelOf({ name: 'output_send__chat' })).toBe('chat');
    expect(outputChannelOf({ name: 'lamp__set' })).toBeUndefined();
  });
});
