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

/** A call before its tool is looked up (`runWith` looks it up, as the step does). */
export type CallSpec = Omit<PreparedCall, 'tool'>;

export function call(index: number, name: string, args: Record<string, unknown> = {}): CallSpec {
  return { index, callId: `call_${index}`, name, args };
}

/** Runs a batch over the given tools and collects its events. */
export async function runWith(options: {
  tools: readonly ToolDefinition[];
  calls: readonly CallSpec[];
  pipeline?: Partial<ToolCallPipeline>;
  signal?: AbortSignal;
  /** Sees every event as it is emitted (before the test reads the list). */
  onEvent?: (event: AgentEventInput) => void;
  extra?: Partial<Omit<BatchOptions, 'scope'>>;
}) {
  const events: AgentEventInput[] = [];
  const results = await runBatch({
    scope: {
      conversationId: 'conv',
      turnId: 'turn',
      signal: options.signal ?? new AbortController().signal,
      emit: (event) => {
        events.push(event);
        options.onEvent?.(event);
      },
    },
    batchId: 'batch-1',
    step: 1,
    calls: options.calls.map((spec) => ({
      ...spec,
      tool: options.tools.find((candidate) => candidate.name === spec.name),
    })),
    pipeline: { defaultTimeoutMs: 10_000, ...options.pipeline },
    ...options.extra,
  });
  return { results, events };
}

/** The reason of a result, or 'ok'. */
export function reasonOf(result: { outcome: { ok: boolean; error?: { reason: string } } }): string {
  return result.outcome.ok ? 'ok' : (result.outcome.error?.reason ?? '?');
}
