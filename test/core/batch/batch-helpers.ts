import { runBatch, type BatchOptions } from '../../../core/batch/run-batch.ts';
import type { PreparedCall, ToolCallPipeline } from '../../../core/batch/run-tool-call.ts';
import type { AgentEventInput } from '../../../core/events/agent-event.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

/** A promise the test resolves by hand: handlers wait on it so overlap is observable without timing. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves once the signal aborts (a handler that runs until it is stopped). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** One macrotask later; lets every ready continuation run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function tool(name: string, declarations: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
    handler: () => ({ tool: name }),
    ...declarations,
  };
}

export function call(index: number, name: string, args: Record<string, unknown> = {}): PreparedCall {
  return { index, callId: `call_${index}`, name, args };
}

/** Runs a batch over the given tools and collects its events. */
export async function runWith(options: {
  tools: readonly ToolDefinition[];
  calls: readonly PreparedCall[];
  pipeline?: Partial<ToolCallPipeline>;
  signal?: AbortSignal;
  extra?: Partial<BatchOptions>;
}) {
  const events: AgentEventInput[] = [];
  const results = await runBatch({
    batchId: 'batch-1',
    step: 1,
    conversationId: 'conv',
    turnId: 'turn',
    calls: options.calls,
    pipeline: {
      lookUp: (name) => options.tools.find((candidate) => candidate.name === name),
      defaultTimeoutMs: 10_000,
      ...options.pipeline,
    },
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => events.push(event),
    ...options.extra,
  });
  return { results, events };
}

/** The reason of a result, or 'ok'. */
export function reasonOf(result: { outcome: { ok: boolean; error?: { reason: string } } }): string {
  return result.outcome.ok ? 'ok' : (result.outcome.error?.reason ?? '?');
}
