import { throwBadChunk } from '../http/parse-model-chunk.ts';
import type { FinishReason, ModelStreamPart, TokenUsage } from '../model-adapter.ts';
import { ModelError } from '../model-error.ts';
import { PartialArgsAssembler } from './assemble-partial-args.ts';
import type { GeminiChunk, GeminiFunctionCall } from './gemini-chunk-schema.ts';

const PROVIDER = 'gemini';

/** The id made up for call `index` of the reply in step `step`, when Gemini sends none. */
export function syntheticGeminiCallId(step: number, index: number): string {
  return `gemini-${step}-${index}`;
}

/** True for ids this adapter made up (they are not sent back to Gemini). */
export function isSyntheticGeminiCallId(id: string): boolean {
  return /^gemini-\d+-\d+$/.test(id);
}

interface OpenCall {
  index: number;
  assembler: PartialArgsAssembler;
}

/**
 * Turns Gemini chunks into parts. Every `functionCall` part is one whole call, given an index (and
 * an id when it has none) in arrival order, and its `tool-call-end` at once; a Vertex call with
 * `willContinue` is opened with `requiresEnd`, its `partialArgs` assembled by JSON path and
 * emitted whole, with its end, at its own end part.
 * Thought parts are not text.
 */
export class GeminiStreamParts {
  private nextIndex = 0;
  private open: OpenCall | undefined;
  private finishReason: string | undefined;
  private readonly usage: TokenUsage = {};

  constructor(private readonly step: number) {}

  /** True once a candidate carried a finishReason. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  partsOf(chunk: GeminiChunk, text: string): ModelStreamPart[] {
    if (chunk.error)
      throw new ModelError({
        kind: 'server',
        provider: PROVIDER,
        message: `${PROVIDER}: the server reported an error in the middle of the reply: ${chunk.error.message}`,
      });
    if (typeof chunk.usageMetadata?.promptTokenCount === 'number')
      this.usage.inputTokens = chunk.usageMetadata.promptTokenCount;
    if (typeof chunk.usageMetadata?.candidatesTokenCount === 'number')
      this.usage.outputTokens = chunk.usageMetadata.candidatesTokenCount;
    const parts: ModelStreamPart[] = [];
    const candidate = chunk.candidates?.[0];
    if (!candidate) {
      if (chunk.promptFeedback?.blockReason) this.finishReason = `BLOCKED_${chunk.promptFeedback.blockReason}`;
      return parts;
    }
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall) parts.push(...this.functionCallParts(part.functionCall, text));
      else if (part.text && part.thought !== true) parts.push({ type: 'text-delta', text: part.text });
    }
    if (candidate.finishReason) {
      // The reply is over: a streamed call still open ended with it (Vertex may omit the terminal piece).
      parts.push(...this.closeOpen());
      this.finishReason = candidate.finishReason;
    }
    return parts;
  }

  /** The closing part, once the stream ended properly. */
  finish(): ModelStreamPart {
    const part: ModelStreamPart = { type: 'finish', reason: this.mapFinishReason() };
    if (this.usage.inputTokens !== undefined || this.usage.outputTokens !== undefined) part.usage = { ...this.usage };
    return part;
  }

  private functionCallParts(call: GeminiFunctionCall, text: string): ModelStreamPart[] {
    const parts: ModelStreamPart[] = [];
    if (call.name) {
      parts.push(...this.closeOpen());
      const index = this.nextIndex++;
      const id = call.id || syntheticGeminiCallId(this.step, index);
      if (call.willContinue) {
        this.open = { index, assembler: new PartialArgsAssembler() };
        Object.assign(this.open.assembler.args, call.args ?? {});
        this.applyPieces(call, text);
        parts.push({ type: 'tool-call-delta', index, id, name: call.name, requiresEnd: true });
        return parts;
      }
      const assembler = new PartialArgsAssembler();
      Object.assign(assembler.args, call.args ?? {});
      for (const piece of call.partialArgs ?? [])
        if (!assembler.apply(piece))
          throwBadChunk({
            provider: PROVIDER,
            field: 'functionCall.partialArgs.jsonPath',
            problem: `cannot read "${piece.jsonPath}"`,
            text,
          });
      parts.push({
        type: 'tool-call-delta',
        index,
        id,
        name: call.name,
        argumentsDelta: JSON.stringify(assembler.args),
      });
      // A whole call is complete as it arrives (so it may start while the reply streams).
      parts.push({ type: 'tool-call-end', index });
      return parts;
    }
    if (!this.open) {
      if (call.partialArgs?.length || call.args)
        return throwBadChunk({
          provider: PROVIDER,
          field: 'functionCall.name',
          problem: 'arguments for no call in progress',
          text,
        });
      return parts; // an empty terminal piece with nothing open
    }
    this.applyPieces(call, text);
    if (!call.willContinue) parts.push(...this.closeOpen());
    return parts;
  }

  private applyPieces(call: GeminiFunctionCall, text: string): void {
    for (const piece of call.partialArgs ?? []) {
      if (!this.open?.assembler.apply(piece))
        throwBadChunk({
          provider: PROVIDER,
          field: 'functionCall.partialArgs.jsonPath',
          problem: `cannot read "${piece.jsonPath}"`,
          text,
        });
    }
  }

  private closeOpen(): ModelStreamPart[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    return [
      { type: 'tool-call-delta', index: open.index, argumentsDelta: JSON.stringify(open.assembler.args) },
      { type: 'tool-call-end', index: open.index },
    ];
  }

  private mapFinishReason(): FinishReason {
    const reason = this.finishReason;
    if (reason === 'STOP' || reason === undefined) return this.nextIndex > 0 ? 'tool_calls' : 'stop';
    if (reason === 'MAX_TOKENS') return 'length';
    return 'other';
  }
}
