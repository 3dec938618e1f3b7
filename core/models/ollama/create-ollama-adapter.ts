import type { ModelAdapterOptions } from '../adapter-options.ts';
import { adapterContext } from '../http/adapter-context.ts';
import { httpModelAdapter, type ReplyBody } from '../http/http-model-adapter.ts';
import { ndjsonLines } from '../http/ndjson-lines.ts';
import { isWholeJson, parseModelChunk } from '../http/parse-model-chunk.ts';
import { streamCutError } from '../http/stream-cut-error.ts';
import type { FinishReason, ModelAdapter, ModelStreamPart } from '../model-adapter.ts';
import { ModelError } from '../model-error.ts';
import { ollamaChunkSchema } from './ollama-chunk-schema.ts';
import { ollamaContextWindow } from './ollama-context-window.ts';
import { ollamaRequestBody } from './ollama-request-body.ts';
import { ollamaRootUrl } from './ollama-root-url.ts';
import { ollamaServer } from './ollama-server.ts';
import { numCtxSetting } from './ollama-settings.ts';

const PROVIDER = 'ollama' as const;

/** The id made up for call `index` of the reply in step `step`, when Ollama sends none. */
export function syntheticOllamaCallId(step: number, index: number): string {
  return `ollama-${step}-${index}`;
}

/**
 * Ollama's native `/api/chat` (NDJSON). Each `tool_calls` entry is a whole call: it gets a fresh
 * index in arrival order (Ollama may send index 0 for every call, so its index is never used),
 * a made-up id when it has none, and its `tool-call-end` at once. A reply is whole at `done: true`.
 * Every request says its context length (`options.num_ctx`, from the request's `contextLength`):
 * Ollama's own default is 4,096 tokens, and it cuts a longer prompt from the front without a word.
 */
export function createOllamaAdapter(options: ModelAdapterOptions): ModelAdapter {
  const baseUrl = ollamaRootUrl(options.baseUrl ?? ollamaServer.defaultBaseUrl);
  return httpModelAdapter({
    server: ollamaServer,
    options,
    baseUrl,
    url: `${baseUrl}/api/chat`,
    accept: 'application/x-ndjson',
    context: adapterContext({
      server: ollamaServer,
      options,
      baseUrl,
      lookupWindow: ollamaContextWindow,
      contextLengthSetting: numCtxSetting,
    }),
    body: (request) => ollamaRequestBody({ request, model: options.model, maxTokens: options.maxTokens }),
    parts: ollamaParts,
  });
}

async function* ollamaParts(reply: ReplyBody): AsyncGenerator<ModelStreamPart, void, undefined> {
  const step = reply.request.messages.filter((message) => message.role === 'assistant').length;
  let nextIndex = 0;
  for await (const { line, atEnd } of ndjsonLines(reply.text)) {
    if (atEnd && !isWholeJson(line)) break;
    const chunk = parseModelChunk({ provider: PROVIDER, text: line, schema: ollamaChunkSchema });
    if (chunk.error)
      throw new ModelError({
        kind: 'server',
        provider: PROVIDER,
        message: `${PROVIDER}: the server reported an error in the middle of the reply: ${chunk.error}`,
      });
    if (chunk.message?.content) yield { type: 'text-delta', text: chunk.message.content };
    for (const call of chunk.message?.tool_calls ?? []) {
      const index = nextIndex++;
      const args = call.function.arguments;
      yield {
        type: 'tool-call-delta',
        index,
        id: call.id || syntheticOllamaCallId(step, index),
        name: call.function.name,
        argumentsDelta: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      };
      // A whole call: the wire says it is complete as it arrives (so it may start while the reply streams).
      yield { type: 'tool-call-end', index };
    }
    if (chunk.done) {
      const finish: ModelStreamPart = { type: 'finish', reason: mapDoneReason(chunk.done_reason, nextIndex > 0) };
      if (typeof chunk.prompt_eval_count === 'number' || typeof chunk.eval_count === 'number') {
        finish.usage = {};
        if (typeof chunk.prompt_eval_count === 'number') finish.usage.inputTokens = chunk.prompt_eval_count;
        if (typeof chunk.eval_count === 'number') finish.usage.outputTokens = chunk.eval_count;
      }
      yield finish;
      return;
    }
  }
  throw streamCutError(reply.context, '"done": true');
}

function mapDoneReason(reason: string | null | undefined, sawTools: boolean): FinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'stop' || reason === undefined || reason === null) return sawTools ? 'tool_calls' : 'stop';
  return 'other';
}
