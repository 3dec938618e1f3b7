import type { LoopbackReply, LoopbackResponder, RecordedRequest } from './loopback-model-server.ts';

/**
 * Model servers that count tokens and keep a context window the way the real ones do, as
 * responders for `startLoopbackModelServer`: OpenAI's and Anthropic's and Gemini's 400 bodies for a
 * prompt over the window, an Ollama that cuts a long prompt from the FRONT silently (HTTP 200,
 * `prompt_eval_count` equal to `num_ctx`, the tools gone), and the look-ups that say a model's window
 * (Ollama `/api/show`, llama.cpp `/props`, LM Studio `/api/v0/models`, vLLM and OpenRouter `/v1/models`).
 * Their tokenizer is one token per FAKE_BYTES_PER_TOKEN bytes of the prompt's JSON.
 */

export const FAKE_BYTES_PER_TOKEN = 4;

/** What the fake model answers: tool calls (by name and arguments) or text. */
export interface FakeReply {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
}

/** What the fake model is shown of a request, to choose its reply. */
export interface FakeTurn {
  /** The role of the last message (`user`, `assistant`, `tool`; Gemini/Anthropic results count as `tool`). */
  lastRole: string;
  /** The tool names the model was offered (none after Ollama cut them off). */
  tools: string[];
  promptTokens: number;
}

/** How a request was answered, for a test or the bench to count. */
export interface FakeServed {
  path: string;
  status: number;
  promptTokens?: number;
  bodyBytes: number;
  /** Ollama: the prompt did not fit num_ctx and was cut from the front. */
  cut?: boolean;
}

interface FakeOptions {
  /** The model's window, in the fake tokenizer's tokens; absent: no limit. */
  limitTokens?: number;
  reply?: (turn: FakeTurn) => FakeReply;
  served?: FakeServed[];
}

const json = { 'content-type': 'application/json' };

/** Tokens of a value as the fake tokenizer counts them. */
export function fakeTokens(value: unknown): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(value ?? null), 'utf8') / FAKE_BYTES_PER_TOKEN);
}

/** By default: calls a lamp when the person spoke last (if the tool is offered), then says it is done. */
export function lampsThenText(turn: FakeTurn): FakeReply {
  if (turn.lastRole === 'user' && turn.tools.includes('lamp__set'))
    return {
      toolCalls: [
        { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
        { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      ],
    };
  if (turn.lastRole === 'user') return { text: 'I have no tool to do that.' };
  return { text: 'Both lamps are on.' };
}

function parseBody(request: RecordedRequest): Record<string, unknown> {
  try {
    return JSON.parse(request.body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function pathOf(request: RecordedRequest): string {
  return new URL(request.url, 'http://x').pathname;
}

function record(options: FakeOptions, entry: FakeServed): void {
  options.served?.push(entry);
}

function sse(events: unknown[], done = false): string {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** What an OpenAI-compatible server's `/v1/models`, `/props` or `/api/v0/models` says, per kind of server. */
export type OpenAiServerKind = 'openai' | 'vllm' | 'openrouter' | 'llama.cpp' | 'lm-studio';

/**
 * An OpenAI-compatible server (`/v1/chat/completions`) with a window of `limitTokens`: over it, the
 * 400 OpenAI sends (`context_length_exceeded`, "This model's maximum context length is N tokens.
 * However, your messages resulted in M tokens…"; with `max_tokens`, vLLM's "you requested T tokens
 * (M in the messages, C in the completion)"). Usage is reported when `stream_options.include_usage`
 * asks for it. `kind` decides which look-up paths say the window.
 */
export function openAiLikeServer(
  options: FakeOptions & { kind?: OpenAiServerKind; model?: string },
): LoopbackResponder {
  const model = options.model ?? 'fake-model';
  return (request) => {
    const path = pathOf(request);
    if (request.method === 'GET') return openAiLookup({ ...options, model, path });
    const body = parseBody(request);
    const tools = ((body.tools as { function: { name: string } }[] | undefined) ?? []).map(
      (tool) => tool.function.name,
    );
    const messages = (body.messages as { role: string }[] | undefined) ?? [];
    const promptTokens = fakeTokens({ messages: body.messages, tools: body.tools });
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
    const bodyBytes = Buffer.byteLength(request.body, 'utf8');
    if (options.limitTokens !== undefined && promptTokens + maxTokens > options.limitTokens) {
      record(options, { path, status: 400, promptTokens, bodyBytes });
      const message =
        maxTokens > 0
          ? `This model's maximum context length is ${options.limitTokens} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`
          : `This model's maximum context length is ${options.limitTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`;
      return {
        status: 400,
        headers: json,
        body: JSON.stringify({
          error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
        }),
      };
    }
    record(options, { path, status: 200, promptTokens, bodyBytes });
    const reply = (options.reply ?? lampsThenText)({ lastRole: messages.at(-1)?.role ?? '', tools, promptTokens });
    const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', model };
    const events: unknown[] = [];
    if (reply.text)
      events.push({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: reply.text } }] });
    (reply.toolCalls ?? []).forEach((call, index) =>
      events.push({
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index,
                  id: `call_fake_${index}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                },
              ],
            },
          },
        ],
      }),
    );
    events.push({
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: reply.toolCalls ? 'tool_calls' : 'stop' }],
    });
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage)
      events.push({ ...base, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: 12 } });
    return { body: sse(events, true) };
  };
}

function openAiLookup(options: FakeOptions & { kind?: OpenAiServerKind; model: string; path: string }): LoopbackReply {
  const { kind = 'openai', model, path, limitTokens } = options;
  const found = (body: unknown): LoopbackReply => {
    record(options, { path, status: 200, bodyBytes: 0 });
    return { headers: json, body: JSON.stringify(body) };
  };
  if (path === '/v1/models') {
    const entry: Record<string, unknown> = { id: model, object: 'model', owned_by: 'someone' };
    if (kind === 'vllm' && limitTokens !== undefined) entry.max_model_len = limitTokens;
    if (kind === 'openrouter' && limitTokens !== undefined) entry.context_length = limitTokens;
    return found({ object: 'list', data: [{ id: 'another-model', object: 'model' }, entry] });
  }
  if (kind === 'llama.cpp' && path === '/props' && limitTokens !== undefined)
    return found({ default_generation_settings: { n_ctx: limitTokens, params: {} }, total_slots: 1 });
  if (kind === 'lm-studio' && path === '/api/v0/models' && limitTokens !== undefined)
    return found({
      object: 'list',
      data: [
        {
          id: model,
          type: 'llm',
          state: 'loaded',
          max_context_length: limitTokens * 4,
          loaded_context_length: limitTokens,
        },
      ],
    });
  record(options, { path, status: 404, bodyBytes: 0 });
  return { status: 404, headers: json, body: JSON.stringify({ error: 'not found' }) };
}

/**
 * Anthropic Messages (`/v1/messages`): over the window, its 400 "prompt is too long: M tokens > N
 * maximum"; else a stream with `input_tokens` in `message_start`.
 */
export function anthropicLikeServer(options: FakeOptions): LoopbackResponder {
  return (request) => {
    const path = pathOf(request);
    const body = parseBody(request);
    const messages = (body.messages as { role: string; content: { type: string }[] }[] | undefined) ?? [];
    const promptTokens = fakeTokens({ system: body.system, messages: body.messages, tools: body.tools });
    const bodyBytes = Buffer.byteLength(request.body, 'utf8');
    if (options.limitTokens !== undefined && promptTokens > options.limitTokens) {
      record(options, { path, status: 400, promptTokens, bodyBytes });
      return {
        status: 400,
        headers: json,
        body: JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `prompt is too long: ${promptTokens} tokens > ${options.limitTokens} maximum`,
          },
        }),
      };
    }
    record(options, { path, status: 200, promptTokens, bodyBytes });
    const last = messages.at(-1);
    const lastRole = last?.content.some((block) => block.type === 'tool_result') ? 'tool' : (last?.role ?? '');
    const tools = ((body.tools as { name: string }[] | undefined) ?? []).map((tool) => tool.name);
    const reply = (options.reply ?? lampsThenText)({ lastRole, tools, promptTokens });
    const events: unknown[] = [
      {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          content: [],
          usage: { input_tokens: promptTokens, output_tokens: 1 },
        },
      },
    ];
    let index = 0;
    if (reply.text) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: reply.text } });
      events.push({ type: 'content_block_stop', index });
      index += 1;
    }
    for (const call of reply.toolCalls ?? []) {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: `toolu_fake_${index}`, name: call.name, input: {} },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) },
      });
      events.push({ type: 'content_block_stop', index });
      index += 1;
    }
    events.push({
      type: 'message_delta',
      delta: { stop_reason: reply.toolCalls ? 'tool_use' : 'end_turn' },
      usage: { output_tokens: 12 },
    });
    events.push({ type: 'message_stop' });
    return {
      body: events
        .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
        .join(''),
    };
  };
}

/**
 * Gemini `streamGenerateContent`: over the window, its 400 INVALID_ARGUMENT "The input token count
 * (M) exceeds the maximum number of tokens allowed (N)." (as the array the API sends); else an SSE
 * stream with `usageMetadata.promptTokenCount`.
 */
export function geminiLikeServer(options: FakeOptions): LoopbackResponder {
  return (request) => {
    const path = pathOf(request);
    const body = parseBody(request);
    const contents = (body.contents as { role: string; parts: Record<string, unknown>[] }[] | undefined) ?? [];
    const promptTokens = fakeTokens({ system: body.systemInstruction, contents: body.contents, tools: body.tools });
    const bodyBytes = Buffer.byteLength(request.body, 'utf8');
    if (options.limitTokens !== undefined && promptTokens > options.limitTokens) {
      record(options, { path, status: 400, promptTokens, bodyBytes });
      const message = `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${options.limitTokens}).`;
      return {
        status: 400,
        headers: json,
        body: JSON.stringify([
          {
            error: {
              code: 400,
              message,
              errors: [{ message, domain: 'global', reason: 'badRequest' }],
              status: 'INVALID_ARGUMENT',
            },
          },
        ]),
      };
    }
    record(options, { path, status: 200, promptTokens, bodyBytes });
    const last = contents.at(-1);
    const lastRole = last?.parts.some((part) => 'functionResponse' in part) ? 'tool' : (last?.role ?? '');
    const declarations =
      (body.tools as { functionDeclarations: { name: string }[] }[] | undefined)?.[0]?.functionDeclarations ?? [];
    const reply = (options.reply ?? lampsThenText)({
      lastRole,
      tools: declarations.map((tool) => tool.name),
      promptTokens,
    });
    const parts: unknown[] = [];
    if (reply.text) parts.push({ text: reply.text });
    for (const call of reply.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.args } });
    return {
      body: sse([
        {
          candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
          usageMetadata: {
            promptTokenCount: promptTokens,
            candidatesTokenCount: 12,
            totalTokenCount: promptTokens + 12,
          },
        },
      ]),
    };
  };
}

/**
 * Ollama's native API: `/api/show` says the model's own length (`model_info["llama.context_length"]`);
 * `/api/chat` keeps `options.num_ctx` tokens (4096 when absent) and cuts a longer prompt from the
 * FRONT, silently — the system prompt and the tools go first, so the model answers without tools,
 * with HTTP 200 and `prompt_eval_count` equal to `num_ctx`.
 */
export function ollamaLikeServer(options: FakeOptions & { modelLength?: number }): LoopbackResponder {
  return (request) => {
    const path = pathOf(request);
    if (path === '/api/show') {
      record(options, { path, status: 200, bodyBytes: 0 });
      return {
        headers: json,
        body: JSON.stringify({
          modelfile: '# fake',
          details: { family: 'llama', parameter_size: '8.0B' },
          model_info: {
            'general.architecture': 'llama',
            'general.parameter_count': 8030261248,
            'llama.context_length': options.modelLength ?? 131072,
            'llama.embedding_length': 4096,
          },
        }),
      };
    }
    if (path !== '/api/chat') {
      record(options, { path, status: 404, bodyBytes: 0 });
      return { status: 404, headers: json, body: JSON.stringify({ error: '404 page not found' }) };
    }
    const body = parseBody(request);
    const numCtx = (body.options as { num_ctx?: number } | undefined)?.num_ctx ?? 4096;
    const messages = (body.messages as { role: string }[] | undefined) ?? [];
    const promptTokens = fakeTokens({ messages: body.messages, tools: body.tools });
    const cut = promptTokens > numCtx;
    const bodyBytes = Buffer.byteLength(request.body, 'utf8');
    record(options, { path, status: 200, promptTokens, bodyBytes, cut });
    const tools = cut
      ? []
      : ((body.tools as { function: { name: string } }[] | undefined) ?? []).map((tool) => tool.function.name);
    const reply = (options.reply ?? lampsThenText)({
      lastRole: messages.at(-1)?.role ?? '',
      tools,
      promptTokens: cut ? numCtx : promptTokens,
    });
    const lines: unknown[] = [];
    const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? '' };
    if (reply.toolCalls)
      message.tool_calls = reply.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.args } }));
    lines.push({ model: 'llama3.1', created_at: '2025-01-01T00:00:00Z', message, done: false });
    lines.push({
      model: 'llama3.1',
      created_at: '2025-01-01T00:00:00Z',
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: cut ? numCtx : promptTokens,
      eval_count: 12,
    });
    return {
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    };
  };
}
