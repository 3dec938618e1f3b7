import type { ModelAdapter, ModelRequest, FinishReason, TokenUsage } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-error.ts';
import { ToolCallAccumulator, type AccumulatedToolCall } from '../stream/tool-call-accumulator.ts';
import { PARALLEL_WRAPPER_NAME, unpackParallelWrappers } from '../stream/unpack-parallel-wrapper.ts';
import { DEFAULT_REPLY_MAX_BYTES, DEFAULT_REPLY_TIMEOUT_MS, replyBudget } from './reply-limits.ts';
import { TextDeltaCoalescer } from './text-delta-coalescer.ts';

/** One model reply as received: its text, its calls in index order, and how the stream ended. */
export interface StreamedReply {
  text: string;
  calls: AccumulatedToolCall[];
  finish: FinishReason | undefined;
  /** The token counts the server reported with its finish, when it did. */
  usage?: TokenUsage;
  /**
   * The error that ended the stream early (the calls are then all incomplete), or a `bad_chunk`
   * ModelError for a `multi_tool_use.parallel` wrapper that cannot be read (then there are no calls).
   */
  error?: unknown;
}

/**
 * Streams one reply, handing text to `onText` as it comes (joined to a few deltas a second), and
 * accumulates tool-call fragments by stream index. The calls are flushed in index order also when
 * the stream throws. The reply has an overall deadline and a size budget (text and arguments);
 * hitting either stops it with a ReplyLimitError, and its calls stay incomplete, never run.
 * A complete `multi_tool_use.parallel` call is replaced by the calls it holds (any provider may
 * send one), so the wrapper itself is never stored, run or reported as not found.
 */
export async function streamReply(options: {
  model: ModelAdapter;
  request: ModelRequest;
  signal: AbortSignal;
  makeCallId: (position: number) => string;
  onText: (text: string) => void;
  /** The reply's overall deadline (default 5 minutes). */
  timeoutMs?: number;
  /** The reply's size budget in UTF-8 bytes of text and arguments (default 1 MiB). */
  maxBytes?: number;
  /**
   * Early start: each call the wire has said is complete (its `tool-call-end`), in index order and
   * only once every call before it was handed over; never a `multi_tool_use.parallel` wrapper (nor
   * what follows it). Absent: nothing is handed over before the reply ends.
   */
  onFinal?: (call: AccumulatedToolCall) => void;
}): Promise<StreamedReply> {
  const accumulator = new ToolCallAccumulator(options.makeCallId);
  const budget = replyBudget({
    timeoutMs: options.timeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_REPLY_MAX_BYTES,
    label: options.model.label,
  });
  const signal = AbortSignal.any([options.signal, budget.signal]);
  const texts = new TextDeltaCoalescer(options.onText);
  let text = '';
  let finish: FinishReason | undefined;
  let usage: TokenUsage | undefined;
  try {
    for await (const part of options.model.stream(options.request, { signal })) {
      if (signal.aborted) throw stopReason(options.signal, budget);
      switch (part.type) {
        case 'text-delta':
          if (part.text) {
            budget.count(part.text);
            text += part.text;
            texts.push(part.text);
          }
          break;
        case 'tool-call-delta':
          budget.count(`${part.name ?? ''}${part.argumentsDelta ?? ''}`);
          accumulator.push(part);
          break;
        case 'tool-call-end':
          accumulator.end(part.index);
          if (options.onFinal)
            for (let call = takeFinal(accumulator); call; call = takeFinal(accumulator)) options.onFinal(call);
          break;
        case 'finish':
          finish = part.reason;
          usage = part.usage;
          break;
      }
    }
    if (signal.aborted) throw stopReason(options.signal, budget);
  } catch (error) {
    texts.flush();
    // A deadline that fired inside the adapter surfaces as its abort error: name the real cause.
    const cause = !options.signal.aborted && budget.signal.aborted ? budget.timeoutError() : error;
    return { text, calls: accumulator.flush({ streamCompleted: false }), finish, error: cause };
  }
  texts.flush();
  const unpacked = unpackParallelWrappers(accumulator.flush({ streamCompleted: true }));
  if (!unpacked.ok) {
    // The wrapper has no name to store and answer it under (its own is no tool, and OpenAI is
    // reported to refuse a history whose call name has a dot), so the reply runs nothing, as with a
    // cut call, and says why.
    const error = new ModelError({
      kind: 'bad_chunk',
      provider: options.model.label,
      message: `${options.model.label}: the model wrapped its tool calls in ${PARALLEL_WRAPPER_NAME} (call ${unpacked.wrapperId}) and the wrapper cannot be read: ${unpacked.problem}. No tool of this reply was run.`,
    });
    return { text, calls: [], finish, error };
  }
  return { text, calls: unpacked.calls, finish, ...(usage ? { usage } : {}) };
}

function takeFinal(accumulator: ToolCallAccumulator): AccumulatedToolCall | undefined {
  return accumulator.takeFinal({ skip: PARALLEL_WRAPPER_NAME });
}

/** Why the reply stopped: the caller's abort, or the reply's own deadline. */
function stopReason(caller: AbortSignal, budget: { timeoutError(): Error }): unknown {
  return caller.aborted ? (caller.reason ?? new Error('aborted')) : budget.timeoutError();
}
