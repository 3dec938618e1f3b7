import { z } from 'zod';
import type { ModelAdapter, ModelRequest, ModelStreamPart } from '../model-adapter.ts';

/** A scripted model's file: each model request takes the next reply. */
export const scriptSchema = z.object({
  replies: z.array(
    z.object({
      text: z.string().optional(),
      toolCalls: z
        .array(
          z.object({
            name: z.string().min(1),
            args: z.record(z.string(), z.unknown()).optional(),
            /** Raw argument text instead of `args` (to script malformed model output). */
            argumentsText: z.string().optional(),
            id: z.string().optional(),
          }),
        )
        .optional(),
    }),
  ),
});
export type Script = z.infer<typeof scriptSchema>;

/** Splits text into chunks of at most `size` characters so replies arrive as a stream. */
function chunks(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/**
 * Replays a script of replies, streamed in chunks the way a provider would (tool-call fragments
 * with their stream index, arguments split in two). Labelled as scripted wherever it shows.
 */
export class ScriptedModel implements ModelAdapter {
  readonly label: string;
  readonly scripted = true;
  /** How many of the latest requests are kept for tests to read; older ones are let go. */
  static readonly KEPT_REQUESTS = 8;
  private next = 0;
  private readonly kept: ModelRequest[] = [];
  private received = 0;

  constructor(
    private readonly script: Script,
    options: { label?: string } = {},
  ) {
    this.label = options.label ?? 'Scripted model — no AI';
  }

  /**
   * The latest requests received (at most `KEPT_REQUESTS`, oldest first), for tests. Each request
   * carries the whole history, so keeping every one grew `serve`'s heap by 0.63 MB a turn.
   */
  get requests(): readonly ModelRequest[] {
    return this.kept;
  }

  /** How many requests were received in all. */
  get requestCount(): number {
    return this.received;
  }

  async *stream(request: ModelRequest, options: { signal: AbortSignal }): AsyncIterable<ModelStreamPart> {
    this.received += 1;
    this.kept.push(request);
    if (this.kept.length > ScriptedModel.KEPT_REQUESTS) this.kept.shift();
    const reply = this.script.replies[this.next++];
    if (!reply) {
      yield { type: 'text-delta', text: '(The scripted model has no more replies.)' };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    for (const piece of chunks(reply.text ?? '', 16)) {
      if (options.signal.aborted) return;
      yield { type: 'text-delta', text: piece };
    }
    const calls = reply.toolCalls ?? [];
    for (const [index, call] of calls.entries()) {
      const argumentsText = call.argumentsText ?? JSON.stringify(call.args ?? {});
      const half = Math.ceil(argumentsText.length / 2);
      yield {
        type: 'tool-call-delta',
        index,
        id: call.id ?? `call_s${this.next}_${index}`,
        name: call.name,
        argumentsDelta: argumentsText.slice(0, half),
      };
      yield { type: 'tool-call-delta', index, argumentsDelta: argumentsText.slice(half) };
    }
    yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' };
  }
}
