import type { ModelAdapterOptions } from '../adapter-options.ts';
import { endpointUrl } from '../http/endpoint-url.ts';
import { fetchModelStream } from '../http/fetch-model-stream.ts';
import { modelStreamRequest } from '../http/model-stream-request.ts';
import { isWholeJson, parseJsonChunk, validateChunk } from '../http/parse-model-chunk.ts';
import { sseEvents } from '../http/sse-events.ts';
import { streamCutError } from '../http/stream-cut-error.ts';
import type { ModelAdapter, ModelRequest, ModelStreamOptions, ModelStreamPart } from '../model-adapter.ts';
import { DEFAULT_BASE_URLS, SERVER_HINTS } from '../provider-defaults.ts';
import { providerHeaders } from '../provider-headers.ts';
import { anthropicEventTypeSchema } from './anthropic-event-schemas.ts';
import { anthropicRequestBody } from './anthropic-request-body.ts';
import { AnthropicStreamParts } from './anthropic-stream-parts.ts';

const PROVIDER = 'anthropic' as const;

/**
 * Anthropic Messages streaming (`/v1/messages`, `x-api-key`, `anthropic-version`). `baseUrl` is
 * the host (`https://api.anthropic.com`). A reply is whole only at `message_stop`; a tool_use
 * block without its `content_block_stop` stays incomplete and is never executed.
 */
export function createAnthropicAdapter(options: ModelAdapterOptions): ModelAdapter {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URLS.anthropic;
  const url = endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/messages' });
  return {
    label: `${PROVIDER}:${options.model}`,
    stream: (request, streamOptions) => streamAnthropic({ options, baseUrl, url, request, streamOptions }),
  };
}

async function* streamAnthropic(input: {
  options: ModelAdapterOptions;
  baseUrl: string;
  url: string;
  request: ModelRequest;
  streamOptions: ModelStreamOptions;
}): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { options } = input;
  const httpRequest = modelStreamRequest({
    adapter: options,
    provider: PROVIDER,
    baseUrl: input.baseUrl,
    url: input.url,
    serverHint: SERVER_HINTS.anthropic,
    headers: { accept: 'text/event-stream', ...providerHeaders(PROVIDER, options.apiKey) },
    body: anthropicRequestBody({ request: input.request, model: options.model, maxTokens: options.maxTokens }),
    signal: input.streamOptions.signal,
  });
  const state = new AnthropicStreamParts();
  for await (const event of sseEvents(fetchModelStream(httpRequest))) {
    const text = event.data.trim();
    if (text === '') continue;
    if (event.atEnd && !isWholeJson(text)) break;
    const value = parseJsonChunk({ provider: PROVIDER, text });
    const { type } = validateChunk({ provider: PROVIDER, text, value, schema: anthropicEventTypeSchema });
    yield* state.partsOf({ type, value, text });
    if (state.complete) return;
  }
  throw streamCutError(httpRequest.context, 'message_stop');
}
