import type { ModelAdapterOptions } from '../adapter-options.ts';
import type { ModelAdapter, ModelContextInfo, ModelRequest, ModelStreamPart } from '../model-adapter.ts';
import type { ProviderServer } from '../provider-server.ts';
import { fetchModelStream, type ModelStreamRequest } from './fetch-model-stream.ts';
import type { ModelRequestContext } from './model-request-context.ts';
import { modelStreamRequest } from './model-stream-request.ts';

/** What a wire format reads its parts from: the reply body as text, and the request's context for errors. */
export interface ReplyBody {
  text: AsyncGenerator<string, void, undefined>;
  context: ModelRequestContext;
  request: ModelRequest;
}

/**
 * The adapter shell every wire format shares: its label, and per reply one streamed HTTP request
 * (the provider's headers and server hint, the adapter's limits and key) whose body the format's
 * own `parts` reads. Only what differs between formats is given here.
 */
export function httpModelAdapter(spec: {
  server: ProviderServer;
  options: ModelAdapterOptions;
  baseUrl: string;
  url: string;
  /** Default `provider:model`. */
  label?: string;
  /** The `accept` header, when the format names one. */
  accept?: string;
  /** What the context budget needs to know of the model (see adapterContext). */
  context?: ModelContextInfo;
  body(request: ModelRequest): unknown;
  parts(reply: ReplyBody): AsyncGenerator<ModelStreamPart, void, undefined>;
}): ModelAdapter {
  const { server, options } = spec;
  return {
    label: spec.label ?? `${server.id}:${options.model}`,
    ...(spec.context ? { context: spec.context } : {}),
    stream: (request, streamOptions) => {
      const httpRequest = replyRequest({ ...spec, body: spec.body(request), signal: streamOptions.signal });
      return spec.parts({ text: fetchModelStream(httpRequest), context: httpRequest.context, request });
    },
  };
}

/** One reply's HTTP request for a provider: its headers and server hint, the adapter's key and limits. */
export function replyRequest(spec: {
  server: ProviderServer;
  options: ModelAdapterOptions;
  baseUrl: string;
  url: string;
  accept?: string;
  body: unknown;
  signal: AbortSignal;
}): ModelStreamRequest {
  return modelStreamRequest({
    adapter: spec.options,
    server: spec.server,
    baseUrl: spec.baseUrl,
    url: spec.url,
    ...(spec.accept ? { headers: { accept: spec.accept } } : {}),
    body: spec.body,
    signal: spec.signal,
  });
}
