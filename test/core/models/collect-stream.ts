import type { ModelAdapter, ModelRequest, ModelStreamPart } from '../../../core/models/model-adapter.ts';
import { ModelError } from '../../../core/models/model-error.ts';
import { parseToolArguments } from '../../../core/stream/parse-tool-arguments.ts';
import { ToolCallAccumulator } from '../../../core/stream/tool-call-accumulator.ts';
import { unpackParallelWrappers } from '../../../core/stream/unpack-parallel-wrapper.ts';

/** A call as the kernel would see it after flush. */
export interface CollectedCall {
  id: string;
  syntheticId: boolean;
  name: string | undefined;
  args: Record<string, unknown> | null;
  complete: boolean;
}

export interface CollectedStream {
  parts: ModelStreamPart[];
  text: string;
  calls: CollectedCall[];
  error: ModelError | undefined;
}

export const SIMPLE_REQUEST: ModelRequest = {
  system: 'You control lamps.',
  messages: [{ role: 'user', text: 'Turn on the lamps.' }],
  tools: [],
};

/**
 * Runs an adapter the way the kernel does: parts into the ToolCallAccumulator (tool-call-end
 * included), flush with `streamCompleted` false when the stream threw, `multi_tool_use.parallel`
 * unpacked (an unreadable one throws), arguments through parseToolArguments.
 */
export async function collectStream(options: {
  adapter: ModelAdapter;
  request?: ModelRequest;
  signal?: AbortSignal;
  onPart?: (part: ModelStreamPart) => void;
}): Promise<CollectedStream> {
  const accumulator = new ToolCallAccumulator();
  const parts: ModelStreamPart[] = [];
  let error: ModelError | undefined;
  try {
    for await (const part of options.adapter.stream(options.request ?? SIMPLE_REQUEST, {
      signal: options.signal ?? new AbortController().signal,
    })) {
      parts.push(part);
      options.onPart?.(part);
      if (part.type === 'tool-call-delta') accumulator.push(part);
      if (part.type === 'tool-call-end') accumulator.end(part.index);
    }
  } catch (caught) {
    if (!ModelError.isInstance(caught)) throw caught;
    error = caught;
  }
  const unpacked = unpackParallelWrappers(accumulator.flush({ streamCompleted: error === undefined }));
  if (!unpacked.ok) throw new Error(`unreadable wrapper ${unpacked.wrapperId}: ${unpacked.problem}`);
  const calls = unpacked.calls.map((call) => {
    const parsed = parseToolArguments(call.argumentsText);
    return {
      id: call.id,
      syntheticId: call.syntheticId,
      name: call.name,
      args: parsed.ok ? parsed.args : null,
      complete: call.complete,
    };
  });
  const text = parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
  return { parts, text, calls, error };
}
