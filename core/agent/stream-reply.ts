import type { ModelAdapter, ModelRequest, FinishReason } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-error.ts';
import { ToolCallAccumulator, type AccumulatedToolCall } from '../stream/tool-call-accumulator.ts';
import { PARALLEL_WRAPPER_NAME, unpackParallelWrappers } from '../stream/unpack-parallel-wrapper.ts';

/** One model reply as received: its text, its calls in index order, and how the stream ended. */
export interface StreamedReply {
  text: string;
  calls: AccumulatedToolCall[];
  finish: FinishReason | undefined;
  /**
   * The error that ended the stream early (the calls are then all incomplete), or a `bad_chunk`
   * ModelError for a `multi_tool_use.parallel` wrapper that cannot be read (then there are no calls).
   */
  error?: unknown;
}

/**
 * Streams one reply, handing text deltas to `onText` as they come, and accumulates tool-call
 * fragments by stream index. The calls are flushed in index order also when the stream throws.
 * A complete `multi_tool_use.parallel` call is replaced by the calls it holds (any provider may
 * send one), so the wrapper itself is never stored, run or reported as not found.
 */
export async function streamReply(options: {
  model: ModelAdapter;
  request: ModelRequest;
  signal: AbortSignal;
  makeCallId: (position: number) => string;
  onText: (text: string) => void;
}): Promise<StreamedReply> {
  const accumulator = new ToolCallAccumulator(options.makeCallId);
  let text = '';
  let finish: FinishReason | undefined;
  try {
    for await (const part of options.model.stream(options.request, { signal: options.signal })) {
      if (options.signal.aborted) throw options.signal.reason ?? new Error('aborted');
      switch (part.type) {
        case 'text-delta':
          if (part.text) {
            text += part.text;
            options.onText(part.text);
          }
          break;
        case 'tool-call-delta':
          accumulator.push(part);
          break;
        case 'tool-call-end':
          accumulator.end(part.index);
          break;
        case 'finish':
          finish = part.reason;
          break;
      }
    }
    if (options.signal.aborted) throw options.signal.reason ?? new Error('aborted');
  } catch (error) {
    return { text, calls: accumulator.flush({ streamCompleted: false }), finish, error };
  }
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
  return { text, calls: unpacked.calls, finish };
}
