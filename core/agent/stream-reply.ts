import type { ModelAdapter, ModelRequest, FinishReason } from '../models/model-adapter.ts';
import { ToolCallAccumulator, type AccumulatedToolCall } from '../stream/tool-call-accumulator.ts';

/** One model reply as received: its text, its calls in index order, and how the stream ended. */
export interface StreamedReply {
  text: string;
  calls: AccumulatedToolCall[];
  finish: FinishReason | undefined;
  /** The error that ended the stream early, if any (the calls are then all incomplete). */
  error?: unknown;
}

/**
 * Streams one reply, handing text deltas to `onText` as they come, and accumulates tool-call
 * fragments by stream index. The calls are flushed in index order also when the stream throws.
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
  return { text, calls: accumulator.flush({ streamCompleted: true }), finish };
}
