import { describe, expect, it } from 'vitest';
import { createSequencesPlugin } from '../../../../core/plugins/sequences/create-sequences-plugin.ts';
import { InMemorySequenceStore } from '../../../../core/plugins/sequences/in-memory-sequence-store.ts';
import type { Sequence } from '../../../../core/plugins/sequences/sequence-schema.ts';
import { runSequence } from '../../../../core/plugins/sequences/run-sequence.ts';
import type { ToolApi } from '../../../../core/tools/tool-api.ts';
import { createToolApi } from '../../../../core/batch/create-tool-api.ts';
import type { ToolDefinition } from '../../../../core/tools/tool-definition.ts';
import type { ApprovalGate } from '../../../../core/batch/run-tool-call.ts';
import { deferred } from './sequence-test-kit.ts';

/** A switch that asks the person, and one whose request leaves and is never answered. */
function setUp(sequence: Sequence) {
  const asked = deferred();
  const sent = deferred();
  const tools: ToolDefinition[] = [
    {
      name: 'asks__set',
      description: 'Needs the person.',
      parameters: { type: 'object', properties: {} },
      needsApproval: true,
      handler: () => ({ switched: true }),
    },
    {
      name: 'hangs__set',
      description: 'Its request leaves; no answer comes.',
      parameters: { type: 'object', properties: {} },
      reportsDelivery: true,
      handler: (_args, context) => {
        context.markSent();
        sent.resolve();
        return new Promise(() => {});
      },
    },
  ];
  // Nobody answers: the question waits until the call is stopped.
  const approve: ApprovalGate = ({ tool, signal }) =>
    tool.needsApproval
      ? new Promise<boolean>((resolve) => {
          asked.resolve();
          signal.addEventListener('abort', () => resolve(false), { once: true });
        })
      : true;
  const plugin = createSequencesPlugin({ store: new InMemorySequenceStore([sequence]), toolApi: () => toolApi });
  const toolApi: ToolApi = createToolApi({ tools: () => [...tools, ...plugin.tools()], pipeline: { approve } });
  const stop = new AbortController();
  const run = toolApi.run({ conversationId: 'c', caller: 'agent', signal: stop.signal }, 'seq_run', {
    name: sequence.name,
  });
  return { asked: asked.promise, sent: sent.promise, stop, run, toolApi };
}

describe('seq_run’s outcome', () => {
  it('is not_sent when it is stopped while its only call waits for the person, and so is that call', async () => {
    const { asked, stop, run } = setUp({
      name: 'ask_first',
      description: 'One call that asks.',
      groups: [{ id: 'g', calls: [{ tool: 'asks__set' }] }],
    });
    await asked;
    stop.abort();
    const ran = await run;
    expect(ran).toMatchObject({ outcome: { ok: false, error: { reason: 'aborted' } }, callOutcome: 'not_sent' });
  });

  it('is unknown when it is stopped after a call inside it sent its request', async () => {
    const { sent, stop, run } = setUp({
      name: 'send_then_ask',
      description: 'A call that leaves, beside one that asks.',
      groups: [{ id: 'g', calls: [{ tool: 'hangs__set' }, { tool: 'asks__set' }] }],
    });
    await sent;
    stop.abort();
    expect((await run).callOutcome).toBe('unknown');
  });

  it('reports each call inside a stopped run with what is known of its effect', async () => {
    const both: Sequence = {
      name: 'both',
      description: 'A call that leaves, beside one that asks.',
      groups: [{ id: 'g', calls: [{ tool: 'hangs__set' }, { tool: 'asks__set' }] }],
    };
    const { sent, asked, toolApi } = setUp(both);
    const stop = new AbortController();
    const left: string[] = [];
    const running = runSequence({
      sequence: both,
      toolApi,
      loadSequence: () => Promise.resolve(undefined),
      conversationId: 'c',
      signal: stop.signal,
      onLeave: () => left.push('left'),
    });
    await Promise.all([sent, asked]);
    stop.abort();
    const report = await running;
    expect(report.groups[0]?.calls.map((call) => [call.tool, call.status, call.outcome])).toEqual([
      ['hangs__set', 'failed', 'unknown'],
      ['asks__set', 'failed', 'not_sent'],
    ]);
    expect(left).toEqual(['left']);
  });
});
