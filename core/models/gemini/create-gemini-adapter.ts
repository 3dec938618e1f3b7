import type { ModelAdapterOptions } from '../adapter-options.ts';
import { adapterContext } from '../http/adapter-context.ts';
import { endpointUrl } from '../http/endpoint-url.ts';
import { httpModelAdapter, type ReplyBody } from '../http/http-model-adapter.ts';
import { jsonArrayElements } from '../http/json-array-elements.ts';
import { isWholeJson, parseModelChunk } from '../http/parse-model-chunk.ts';
import { peekText } from '../http/peek-text.ts';
import { sseEvents } from '../http/sse-events.ts';
import { streamCutError } from '../http/stream-cut-error.ts';
import type { ModelAdapter, ModelStreamPart } from '../model-adapter.ts';
import { geminiChunkSchema } from './gemini-chunk-schema.ts';
import { geminiRequestBody } from './gemini-request-body.ts';
import { geminiServer } from './gemini-server.ts';
import { GeminiStreamParts } from './gemini-stream-parts.ts';

const PROVIDER = 'gemini' as const;

/**
 * Google Gemini `streamGenerateContent?alt=sse` (`x-goog-api-key`). `baseUrl` is the host
 * (`https://generativelanguage.googleapis.com`). Also reads the streamed JSON array a server sends
 * without `alt=sse`. A reply is whole once a candidate carries a finishReason (and, for the array,
 * at its closing bracket).
 */
export function createGeminiAdapter(options: ModelAdapterOptions): ModelAdapter {
  const baseUrl = options.baseUrl ?? geminiServer.defaultBaseUrl;
  const model = options.model.replace(/^models\//, '');
  const path = `/models/${encodeURIComponent(model)}:streamGenerateContent`;
  return httpModelAdapter({
    server: geminiServer,
    options,
    baseUrl,
    url: `${endpointUrl({ baseUrl, versionPrefix: '/v1beta', path })}?alt=sse`,
    label: `${PROVIDER}:${model}`,
    context: adapterContext({ server: geminiServer, options: { ...options, model }, baseUrl }),
    body: (request) => geminiRequestBody({ request, maxTokens: options.maxTokens }),
    parts: geminiParts,
  });
}

async function* geminiParts(reply: ReplyBody): AsyncGenerator<ModelStreamPart, void, undefined> {
  const step = reply.request.messages.filter((message) => message.role === 'assistant').length;
  const state = new GeminiStreamParts(step);
  const { first, stream } = await peekText(reply.text);
  const read = (text: string): ModelStreamPart[] =>
    state.partsOf(parseModelChunk({ provider: PROVIDER, text, schema: geminiChunkSchema }), text);

  if (first === '[') {
    let closed = false;
    for await (const item of jsonArrayElements(stream)) {
      if (item.type === 'end') closed = true;
      else yield* read(item.text);
    }
    if (!closed || !state.finished) throw streamCutError(reply.context, 'the closing "]" with a finishReason');
  } else {
    for await (const event of sseEvents(stream)) {
      const text = event.data.trim();
      if (text === '') continue;
      if (event.atEnd && !isWholeJson(text)) break;
      yield* read(text);
    }
    if (!state.finished) throw streamCutError(reply.context, 'a finishReason');
  }
  yield state.finish();
}
