import type { ModelAdapterOptions } from '../adapter-options.ts';
import { adapterContext } from '../http/adapter-context.ts';
import { endpointUrl } from '../http/endpoint-url.ts';
import { httpModelAdapter, type ReplyBody } from '../http/http-model-adapter.ts';
import { isWholeJson, parseJsonChunk, validateChunk } from '../http/parse-model-chunk.ts';
import { sseEvents } from '../http/sse-events.ts';
import { streamCutError } from '../http/stream-cut-error.ts';
import type { ModelAdapter, ModelStreamPart } from '../model-adapter.ts';
import { anthropicEventTypeSchema } from './anthropic-event-schemas.ts';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, anthropicRequestBody } from './anthropic-request-body.ts';
import { anthropicServer } from './anthropic-server.ts';
import { AnthropicStreamParts } from './anthropic-stream-parts.ts';

const PROVIDER = 'anthropic' as const;

/**
 * Anthropic Messages streaming (`/v1/messages`, `x-api-key`, `anthropic-version`). `baseUrl` is
 * the host (`https://api.anthropic.com`). A reply is whole only at `message_stop`; a tool_use
 * block without its `content_block_stop` stays incomplete and is never executed.
 */
export function createAnthropicAdapter(options: ModelAdapterOptions): ModelAdapter {
  const baseUrl = options.baseUrl ?? anthropicServer.defaultBaseUrl;
  return httpModelAdapter({
    server: anthropicServer,
    options,
    baseUrl,
    url: endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/messages' }),
    accept: 'text/event-stream',
    context: adapterContext({
      server: anthropicServer,
      options,
      baseUrl,
      maxTokens: options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    }),
    body: (request) => anthropicRequestBody({ request, model: options.model, maxTokens: options.maxTokens }),
    parts: anthropicParts,
  });
}

async function* anthropicParts(reply: ReplyBody): AsyncGenerator<ModelStreamPart, void, undefined> {
  const state = new AnthropicStreamParts();
  for await (const event of sseEvents(reply.text)) {
    const text = event.data.trim();
    if (text === '') continue;
    if (event.atEnd && !isWholeJson(text)) break;
    const value = parseJsonChunk({ provider: PROVIDER, text });
    const { type } = validateChunk({ provider: PROVIDER, text, value, schema: anthropicEventTypeSchema });
    yield* state.partsOf({ type, value, text });
    if (state.complete) return;
  }
  throw streamCutError(reply.context, 'message_stop');
}
