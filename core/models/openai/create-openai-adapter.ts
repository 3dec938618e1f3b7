import type { ModelAdapterOptions } from '../adapter-options.ts';
import { adapterContext } from '../http/adapter-context.ts';
import { endpointUrl } from '../http/endpoint-url.ts';
import { fetchModelStream, type ModelStreamRequest } from '../http/fetch-model-stream.ts';
import type { ModelRequestContext } from '../http/model-request-context.ts';
import { replyRequest } from '../http/http-model-adapter.ts';
import { isWholeJson, parseModelChunk, throwBadChunk } from '../http/parse-model-chunk.ts';
import { sseEvents } from '../http/sse-events.ts';
import { streamCutError } from '../http/stream-cut-error.ts';
import type {
  FinishReason,
  ModelAdapter,
  ModelRequest,
  ModelStreamOptions,
  ModelStreamPart,
  TokenUsage,
} from '../model-adapter.ts';
import { ModelError } from '../model-error.ts';
import type { ProviderServer } from '../provider-server.ts';
import { openAiChunkSchema, type OpenAiChunk } from './openai-chunk-schema.ts';
import { openAiContextWindow } from './openai-context-window.ts';
import { openAiRequestBody } from './openai-request-body.ts';
import { fallbackBeforeFirstChunk } from './fallback-before-first-chunk.ts';
import { isParameterRefusal, refusedParameters } from './refused-parameters.ts';
import { refusesParallelToolCalls } from './refuses-parallel-tool-calls.ts';
import { OPENAI_BASE_URL, openaiServer } from './openai-server.ts';

const PROVIDER = 'openai' as const;
const PARALLEL_TOOL_CALLS = 'parallel_tool_calls';
const STREAM_OPTIONS = 'stream_options';

/**
 * OpenAI Chat Completions streaming (`/chat/completions`): OpenAI itself and the compatible family
 * (Ollama `/v1`, LM Studio, llama.cpp server, vLLM, OpenRouter). `baseUrl` carries the version
 * (`http://127.0.0.1:11434/v1`); a bare host gets `/v1`. Tool-call fragments are passed on as
 * sent (index, id, name, argument text); the kernel's accumulator assembles them.
 * `parallel_tool_calls` is left out for models that refuse it: known by name, or learnt from a 400
 * that names it (then the request is sent once more without it, and the model is remembered);
 * `stream_options` (asking for the usage) is left out the same way for servers that refuse it.
 * `server` is what its manifest says of the servers (with the compatible ones its hints name).
 */
export function createOpenAiAdapter(
  options: ModelAdapterOptions,
  server: ProviderServer = openaiServer(),
): ModelAdapter {
  const baseUrl = options.baseUrl ?? OPENAI_BASE_URL;
  const url = endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/chat/completions', onlyOnBareHost: true });
  return {
    label: `${PROVIDER}:${options.model}`,
    context: adapterContext({ server, options, baseUrl, lookupWindow: openAiContextWindow }),
    stream: (request, streamOptions) => streamOpenAi({ server, options, baseUrl, url, request, streamOptions }),
  };
}

interface StreamInput {
  server: ProviderServer;
  options: ModelAdapterOptions;
  baseUrl: string;
  url: string;
  request: ModelRequest;
  streamOptions: ModelStreamOptions;
}

async function* streamOpenAi(input: StreamInput): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { body, context } = openReplyBody(input);
  let finishReason: FinishReason | undefined;
  let usage: TokenUsage | undefined;
  let sawToolCall = false;
  let done = false;
  for await (const event of sseEvents(body)) {
    const data = event.data.trim();
    if (data === '[DONE]') {
      done = true;
      break;
    }
    if (data === '') continue;
    if (event.atEnd && !isWholeJson(data)) break;
    const chunk = parseModelChunk({ provider: PROVIDER, text: data, schema: openAiChunkSchema });
    for (const part of chunkParts(chunk, data)) {
      if (part.type === 'tool-call-delta') sawToolCall = true;
      yield part;
    }
    const reason = chunk.choices?.find((choice) => (choice.index ?? 0) === 0)?.finish_reason;
    if (reason) finishReason = mapFinishReason(reason);
    if (chunk.usage) usage = toUsage(chunk.usage);
  }
  // Some compatible servers end the body after finish_reason without `[DONE]`; a body that ends
  // before either was cut.
  if (!done && finishReason === undefined) throw streamCutError(context, 'data: [DONE]');
  const finish: ModelStreamPart = { type: 'finish', reason: finishReason ?? (sawToolCall ? 'tool_calls' : 'stop') };
  if (usage) finish.usage = usage;
  yield finish;
}

/** The optional parameters a server may refuse with a 400 naming them; each is left out once refused. */
const OPTIONAL_PARAMETERS = [PARALLEL_TOOL_CALLS, STREAM_OPTIONS] as const;

/**
 * The reply body, sent with `parallel_tool_calls` unless the model refuses it and with
 * `stream_options.include_usage` (the usage calibrates the context budget) unless the server
 * refuses that. A 400 naming either comes before any byte of the reply, so sending once more
 * without it doubles nothing; the refusal is remembered per base URL and model.
 */
function openReplyBody(input: StreamInput): { body: AsyncIterable<string>; context: ModelRequestContext } {
  const { options } = input;
  const makeRequest = (left: ReadonlySet<string>): ModelStreamRequest =>
    replyRequest({
      server: input.server,
      options,
      baseUrl: input.baseUrl,
      url: input.url,
      accept: 'text/event-stream',
      body: openAiRequestBody({
        request: input.request,
        model: options.model,
        maxTokens: options.maxTokens,
        parallelToolCalls: !left.has(PARALLEL_TOOL_CALLS),
        includeUsage: !left.has(STREAM_OPTIONS),
      }),
      signal: input.streamOptions.signal,
    });
  const key = (parameter: string) => ({ baseUrl: input.baseUrl, model: options.model, parameter });
  const left = new Set<string>(OPTIONAL_PARAMETERS.filter((parameter) => refusedParameters.has(key(parameter))));
  if (input.request.tools.length === 0 || refusesParallelToolCalls(options.model)) left.add(PARALLEL_TOOL_CALLS);
  const first = makeRequest(left);
  const body = fallbackBeforeFirstChunk(fetchModelStream(first), (error) => {
    const refused = OPTIONAL_PARAMETERS.find(
      (parameter) => !left.has(parameter) && isParameterRefusal(error, parameter),
    );
    if (refused === undefined) return undefined;
    refusedParameters.add(key(refused));
    return fetchModelStream(makeRequest(new Set([...left, refused])));
  });
  return { body, context: first.context };
}

function chunkParts(chunk: OpenAiChunk, text: string): ModelStreamPart[] {
  if (chunk.error) {
    const message = typeof chunk.error === 'string' ? chunk.error : chunk.error.message;
    throw new ModelError({
      kind: 'server',
      provider: PROVIDER,
      message: `${PROVIDER}: the server reported an error in the middle of the reply: ${message}`,
    });
  }
  if (!chunk.choices) return throwBadChunk({ provider: PROVIDER, field: 'choices', problem: 'missing', text });
  const parts: ModelStreamPart[] = [];
  // Only the first choice is read: the request never asks for n > 1.
  const delta = chunk.choices.find((choice) => (choice.index ?? 0) === 0)?.delta;
  if (!delta) return parts;
  if (delta.content) parts.push({ type: 'text-delta', text: delta.content });
  if (delta.refusal) parts.push({ type: 'text-delta', text: delta.refusal });
  for (const fragment of delta.tool_calls ?? []) {
    const part: ModelStreamPart = { type: 'tool-call-delta' };
    if (typeof fragment.index === 'number') part.index = fragment.index;
    if (fragment.id !== undefined) part.id = fragment.id;
    if (fragment.function?.name !== undefined) part.name = fragment.function.name;
    if (fragment.function?.arguments) part.argumentsDelta = fragment.function.arguments;
    parts.push(part);
  }
  return parts;
}

function mapFinishReason(reason: string): FinishReason {
  if (reason === 'stop') return 'stop';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  if (reason === 'length') return 'length';
  return 'other';
}

function toUsage(usage: { prompt_tokens?: number | null; completion_tokens?: number | null }): TokenUsage {
  const result: TokenUsage = {};
  if (typeof usage.prompt_tokens === 'number') result.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') result.outputTokens = usage.completion_tokens;
  return result;
}
