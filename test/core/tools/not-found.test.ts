import { describe, expect, it } from 'vitest';
import { toolNotFound } from '../../../core/tools/not-found.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { runToolCall } from '../../../core/batch/run-tool-call.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

function run(options: { tools: ToolDefinition[]; name: string }) {
  return runToolCall({
    pipeline: { defaultTimeoutMs: 10_000 },
    call: {
      index: 0,
      callId: 'c0',
      name: options.name,
      args: {},
      tool: options.tools.find((tool) => tool.name === options.name),
    },
    identity: { conversationId: 'conv', turnId: 'turn', batchId: 'b', callId: 'c0', index: 0 },
    authorization: { conversationId: 'conv', caller: 'agent' },
    signal: new AbortController().signal,
  });
}

function throwing(name: string, error: unknown): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
    handler: () => {
      throw error;
    },
  };
}

describe('toolNotFound', () => {
  it('is a typed ToolError with reason not_found that names the tool', () => {
    const error = toolNotFound('lamp__sett');
    expect(ToolError.isInstance(error)).toBe(true);
    expect(error.reason).toBe('not_found');
    expect(error.detail).toContain("'lamp__sett'");
  });

  it('tells the model how to recover instead of inviting a retry', () => {
    expect(toolNotFound('lamp__sett').hint).toMatch(/system_list_tools/);
    expect(toolNotFound('lamp__sett').hint).toMatch(/do not retry/i);
    expect(toolNotFound('output_send__kitchen').hint).toMatch(/output_list_channels/);
  });
});

describe('not found through the call pipeline', () => {
  it('answers an unknown tool with reason not_found and the recovery hint', async () => {
    const { outcome } = await run({ tools: [], name: 'lamp__sett' });
    expect(outcome).toMatchObject({ ok: false, error: { reason: 'not_found' } });
    if (!outcome.ok) expect(outcome.error.hint).toMatch(/system_list_tools/);
  });

  it('keeps a handler error whose message says "not found" a plain failure (decoy substring)', async () => {
    const { outcome } = await run({
      tools: [throwing('lamp__set', new Error('device lamp-3 not found in any plugin'))],
      name: 'lamp__set',
    });
    expect(outcome).toEqual({
      ok: false,
      error: { reason: 'failed', detail: 'device lamp-3 not found in any plugin' },
    });
  });

  it('keeps a thrown string or object mentioning not_found a plain failure', async () => {
    const fromString = await run({ tools: [throwing('a', 'tool not found')], name: 'a' });
    expect(fromString.outcome).toMatchObject({ ok: false, error: { reason: 'failed' } });
    const fromShape = await run({ tools: [throwing('a', { reason: 'not_found' })], name: 'a' });
    expect(fromShape.outcome).toMatchObject({ ok: false, error: { reason: 'failed' } });
  });

  it('passes a ToolError thrown by a handler through as what it is', async () => {
    const offline = new ToolError({
      reason: 'device_offline',
      field: 'device_id',
      detail: 'lamp-3 is unplugged',
      hint: 'Try again when it is back.',
    });
    const { outcome } = await run({ tools: [throwing('lamp__set', offline)], name: 'lamp__set' });
    expect(outcome).toEqual({
      ok: false,
      error: {
        reason: 'device_offline',
        field: 'device_id',
        detail: 'lamp-3 is unplugged',
        hint: 'Try again when it is back.',
      },
    });
  });

  it('passes a not_found ToolError raised inside a handler through as not_found (e.g. a sequence calling a missing tool)', async () => {
    const { outcome } = await run({ tools: [throwing('seq_run', toolNotFound('gone'))], name: 'seq_run' });
    expect(outcome).toMatchObject({
      ok: false,
      error: { reason: 'not_found', detail: "There is no tool named 'gone'." },
    });
  });
});
