import type { ModelAdapterOptions } from '../adapter-options.ts';
import { endpointUrl } from '../http/endpoint-url.ts';
import { fetchModelStream } from '../http/fetch-model-stream.ts';
import { jsonArrayElements } from '../http/json-array-elements.ts';
import { modelStreamRequest } from '../http/model-stream-request.ts';
import { isWholeJson, parseModelChunk } from '../http/parse-model-chunk.ts';
import { peekText } from '../http/peek-text.ts';
import { sseEvents } from '../http/sse-events.ts';
import { streamCutError } from '../http/stream-cut-error.ts';
import type { ModelAdapter, ModelRequest, ModelStreamOptions, ModelStreamPart } from '../model-adapter.ts';
import { DEFAULT_BASE_URLS, SERVER_HINTS } from '../provider-defaults.ts';
import { providerHeaders } from '../provider-headers.ts';
import { geminiChunkSchema } from './gemini-chunk-schema.ts';
import { geminiRequestBody } from './gemini-request-body.ts';
import { GeminiStreamParts } from './gemini-stream-parts.ts';

const PROVIDER = 'gemini' as const;

/**
 * Google Gemini `streamGenerateContent?alt=sse` (`x-goog-api-key`). `baseUrl` is the host
 * (`https://generativelanguage.googleapis.com`). Also reads the streamed JSON array a server sends
 * without `alt=sse`. A reply is whole once a candidate carries a finishReason (and, for the array,
 * at its closing bracket).
 */
export function createGeminiAdapter(options: ModelAdapterOptions): ModelAdapter {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URLS.gemini;
  const model = options.model.replace(/^models\//, '');
  const url = `${endpointUrl({ baseUrl, versionPrefix: '/v1beta', path: `/models/${encodeURIComponent(model)}:streamGenerateContent` })}?alt=sse`;
  return {
    label: `${PROVIDER}:${model}`,
    stream: (request, streamOptions) => streamGemini({ options, baseUrl, url, request, streamOptions }),
  };
}

async function* streamGemini(input: {
  options: ModelAdapterOptions;
  baseUrl: string;
  url: string;
  request: ModelRequest;
  streamOptions: ModelStreamOptions;
}): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { options, request } = input;
  const httpRequest = modelStreamRequest({
    adapter: options,
    provider: PROVIDER,
    baseUrl: input.baseUrl,
    url: input.url,
    serverHint: SERVER_HINTS.gemini,
    headers: providerHeaders(PROVIDER, options.apiKey),
    body: geminiRequestBody({ request, maxTokens: options.maxTokens }),
    signal: input.streamOptions.signal,
  });
  const step = request.messages.filter((message) => message.role === 'assistant').length;
  const state = new GeminiStreamParts(step);
  const { first, stream } = await peekText(fetchModelStream(httpRequest));
  const read = (text: string): ModelStreamPart[] =>
    state.partsOf(parseModelChunk({ provider: PROVIDER, text, schema: geminiChunkSchema }), text);

  if (first === '[') {
    let closed = false;
    for await (const item of jsonArrayElements(stream)) {
      if (item.type === 'end') closed = true;
      else yield* read(item.text);
    }
    if (!closed || !state.finished) throw streamCutError(httpRequest.context, 'the closing "]" with a finishReason');
  } else {
    for await (const event of sseEvents(stream)) {
      const text = event.data.trim();
      if (text === '') continue;
      if (event.atEnd && !isWholeJson(text)) break;
      yield* read(text);
    }
    if (!state.finished) throw streamCutError(httpRequest.context, 'a finishReason');
  }
  yield state.finish();
}
