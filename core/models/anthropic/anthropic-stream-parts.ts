import { throwBadChunk, validateChunk } from '../http/parse-model-chunk.ts';
import type { FinishReason, ModelStreamPart, TokenUsage } from '../model-adapter.ts';
import { ModelError } from '../model-error.ts';
import {
  contentBlockDeltaSchema,
  contentBlockStartSchema,
  contentBlockStopSchema,
  errorEventSchema,
  inputJsonDeltaSchema,
  messageDeltaSchema,
  messageStartSchema,
  textDeltaSchema,
  toolUseStartSchema,
} from './anthropic-event-schemas.ts';

const PROVIDER = 'anthropic';

interface ToolBlock {
  /** Input given whole in `content_block_start` (a proxy may send it there instead of streaming it). */
  startInput: Record<string, unknown> | undefined;
  streamedInput: boolean;
}

/**
 * Turns Anthropic Messages stream events into parts. A client `tool_use` block becomes fragments
 * at the block's index with `requiresEnd`, its `content_block_stop` a `tool-call-end`;
 * `server_tool_use` and other server-side blocks are never client calls; thinking is not text.
 */
export class AnthropicStreamParts {
  private readonly toolBlocks = new Map<number, ToolBlock>();
  private stopReason: string | undefined;
  private readonly usage: TokenUsage = {};
  private stopped = false;

  /** True once `message_stop` arrived: the reply is whole. */
  get complete(): boolean {
    return this.stopped;
  }

  partsOf(options: { type: string; value: unknown; text: string }): ModelStreamPart[] {
    const { type, value, text } = options;
    const check = <T>(schema: Parameters<typeof validateChunk<T>>[0]['schema']): T =>
      validateChunk({ provider: PROVIDER, text, value, schema });
    switch (type) {
      case 'message_start': {
        const input = check(messageStartSchema).message.usage?.input_tokens;
        if (typeof input === 'number') this.usage.inputTokens = input;
        return [];
      }
      case 'content_block_start':
        return this.blockStart(check(contentBlockStartSchema), value, text);
      case 'content_block_delta':
        return this.blockDelta(check(contentBlockDeltaSchema), value, text);
      case 'content_block_stop': {
        const { index } = check(contentBlockStopSchema);
        return this.blockStop(index);
      }
      case 'message_delta': {
        const event = check(messageDeltaSchema);
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        if (typeof event.usage?.output_tokens === 'number') this.usage.outputTokens = event.usage.output_tokens;
        if (typeof event.usage?.input_tokens === 'number') this.usage.inputTokens = event.usage.input_tokens;
        return [];
      }
      case 'message_stop':
        this.stopped = true;
        return [this.finish()];
      case 'error': {
        const { error } = check(errorEventSchema);
        const kind = error.type === 'rate_limit_error' ? 'rate_limit' : 'server';
        throw new ModelError({
          kind,
          provider: PROVIDER,
          message: `${PROVIDER}: the server reported ${error.type} in the middle of the reply: ${error.message}`,
        });
      }
      default:
        // `ping` and event types added later carry no content.
        return [];
    }
  }

  private blockStart(
    event: { index: number; content_block: { type: string; text?: string | null } },
    value: unknown,
    text: string,
  ): ModelStreamPart[] {
    const block = event.content_block;
    if (block.type === 'text') return block.text ? [{ type: 'text-delta', text: block.text }] : [];
    if (block.type !== 'tool_use') return [];
    const start = validateChunk({ provider: PROVIDER, text, value, schema: toolUseStartSchema }).content_block;
    const input = start.input && Object.keys(start.input).length > 0 ? start.input : undefined;
    this.toolBlocks.set(event.index, { startInput: input, streamedInput: false });
    return [{ type: 'tool-call-delta', index: event.index, id: start.id, name: start.name, requiresEnd: true }];
  }

  private blockDelta(
    event: { index: number; delta: { type: string } },
    value: unknown,
    text: string,
  ): ModelStreamPart[] {
    if (event.delta.type === 'text_delta') {
      const delta = validateChunk({ provider: PROVIDER, text, value, schema: textDeltaSchema }).delta.text;
      return delta === '' ? [] : [{ type: 'text-delta', text: delta }];
    }
    const tool = this.toolBlocks.get(event.index);
    if (!tool) return []; // thinking, signatures, citations, server tool input: not for the client
    if (event.delta.type !== 'input_json_delta') {
      return throwBadChunk({
        provider: PROVIDER,
        field: 'delta.type',
        problem: `"${event.delta.type}" on a tool_use block`,
        text,
      });
    }
    const fragment = validateChunk({ provider: PROVIDER, text, value, schema: inputJsonDeltaSchema }).delta
      .partial_json;
    if (fragment === '') return [];
    tool.streamedInput = true;
    return [{ type: 'tool-call-delta', index: event.index, argumentsDelta: fragment }];
  }

  private blockStop(index: number): ModelStreamPart[] {
    const tool = this.toolBlocks.get(index);
    if (!tool) return [];
    const parts: ModelStreamPart[] = [];
    if (!tool.streamedInput && tool.startInput)
      parts.push({ type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(tool.startInput) });
    parts.push({ type: 'tool-call-end', index });
    return parts;
  }

  private finish(): ModelStreamPart {
    const part: ModelStreamPart = { type: 'finish', reason: mapStopReason(this.stopReason, this.toolBlocks.size > 0) };
    if (this.usage.inputTokens !== undefined || this.usage.outputTokens !== undefined) part.usage = { ...this.usage };
    return part;
  }
}

function mapStopReason(reason: string | undefined, sawTools: boolean): FinishReason {
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens') return 'length';
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === undefined) return sawTools ? 'tool_calls' : 'stop';
  return 'other';
}
