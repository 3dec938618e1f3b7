import { describe, expect, it } from 'vitest';
import { runToolCall, type ApprovalGate } from '../../../core/batch/run-tool-call.ts';
import { checkEditedArguments } from '../../../core/tools/check-edited-arguments.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

/** A relay's switch: a device, a channel 1–4 and on/off; its grant covers relay-1 and channels 1–3 only. */
function relayTool(ran: Record<string, unknown>[]): ToolDefinition {
  return {
    name: 'relay__set',
    description: 'Switch one relay channel.',
    parameters: {
      type: 'object',
      properties: {
        device_id: { type: 'string' },
        channel: { type: 'integer', minimum: 1, maximum: 4 },
        on: { type: 'boolean' },
      },
      required: ['device_id', 'channel', 'on'],
    },
    needsApproval: true,
    canUse: (_context, args) =>
      args.channel === 4 ? new ToolError({ reason: 'unauthorized', detail: 'channel 4 is not granted' }) : null,
    handler: (args) => {
      ran.push(args);
      return { switched: true };
    },
  };
}

const asked = { device_id: 'relay-1', channel: 2, on: true };

async function run(options: { approve: ApprovalGate; journal?: boolean; journaled?: Record<string, unknown>[] }) {
  const ran: Record<string, unknown>[] = [];
  const tool = relayTool(ran);
  const result = await runToolCall({
    pipeline: { approve: options.approve, defaultTimeoutMs: 5_000, argumentBounds: () => ({ maxBytes: 200 }) },
    call: { index: 0, callId: 'c0', name: tool.name, args: asked, tool },
    identity: { conversationId: 'c', turnId: 't', batchId: 'b', callId: 'c0', index: 0 },
    authorization: { conversationId: 'c', caller: 'agent' },
    signal: new AbortController().signal,
    onArgumentsEdited: (args) => {
      options.journaled?.push(args);
      return options.journal !== false;
    },
  });
  return { result, ran };
}

describe('edited arguments pass every check again before the call runs', () => {
  it('runs with the edit, journals it first, and tells the model what the person changed and to what', async () => {
    const journaled: Record<string, unknown>[] = [];
    const { result, ran } = await run({
      approve: () => ({ approved: true, args: { device_id: 'relay-1', channel: '3', on: true } }),
      journaled,
    });
    // Coerced as the model's are: "3" is the integer 3.
    expect(ran).toEqual([{ device_id: 'relay-1', channel: 3, on: true }]);
    expect(journaled).toEqual([{ device_id: 'relay-1', channel: '3', on: true }]);
    expect(result.outcome).toEqual({
      ok: true,
      value: {
        personChangedArguments: {
          asked,
          ran: { device_id: 'relay-1', channel: '3', on: true },
          note: 'The person changed the arguments before allowing this call: it ran with {"device_id":"relay-1","channel":"3","on":true} instead of {"device_id":"relay-1","channel":2,"on":true}.',
        },
        result: { switched: true },
      },
    });
  });

  it.each([
    ['another device', { device_id: 'relay-2', channel: 3, on: true }, 'denied', 'device_id cannot be edited'],
    ['no device', { channel: 3, on: true }, 'denied', 'device_id cannot be edited'],
    ['outside the schema', { device_id: 'relay-1', channel: 7, on: true }, 'denied', 'channel'],
    ['past the size bound', { device_id: 'relay-1', channel: 3, on: true, note: 'x'.repeat(300) }, 'denied', 'bytes'],
    ['outside the grant', { device_id: 'relay-1', channel: 4, on: true }, 'unauthorized', 'channel 4 is not granted'],
  ])('refuses an edit to %s, and nothing runs', async (_label, edited, reason, words) => {
    const journaled: Record<string, unknown>[] = [];
    const { result, ran } = await run({ approve: () => ({ approved: true, args: edited }), journaled });
    expect(ran).toEqual([]);
    expect(journaled).toEqual([]);
    expect(result.outcome).toMatchObject({ ok: false, error: { reason } });
    expect(JSON.stringify(result.outcome)).toContain(words);
  });

  it('does not run an edit the journal could not record', async () => {
    const { result, ran } = await run({
      approve: () => ({ approved: true, args: { device_id: 'relay-1', channel: 3, on: true } }),
      journal: false,
    });
    expect(ran).toEqual([]);
    expect(result.callOutcome).toBe('not_sent');
  });
});

describe('checkEditedArguments', () => {
  const tool = relayTool([]);
  it('says whether the edit changed anything (keys in any order are the same value)', () => {
    expect(
      checkEditedArguments({ tool, modelArgs: asked, edited: { on: true, channel: 2, device_id: 'relay-1' } }),
    ).toEqual({ ok: true, args: asked, changed: false });
    expect(checkEditedArguments({ tool, modelArgs: asked, edited: { ...asked, on: false } })).toMatchObject({
      ok: true,
      changed: true,
    });
  });
});
