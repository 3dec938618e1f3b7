import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseContextOverflow } from '../../../core/models/context-overflow.ts';
import { errorBodyMessage } from '../../../core/models/http/error-body-message.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';
import { adapterFor, type Provider } from './fixture-adapters.ts';

const json = { 'content-type': 'application/json' };

// The error bodies each server sends for a prompt over its window, as their docs and trackers show them.
const bodies = {
  openai: {
    error: {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
  vllm: {
    object: 'error',
    message:
      "This model's maximum context length is 4096 tokens. However, you requested 5187 tokens (4187 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    type: 'BadRequestError',
    param: null,
    code: 400,
  },
  vllmNewer: {
    object: 'error',
    message:
      "This model's maximum context length is 32768 tokens. However, your request has 40001 input tokens. Please reduce the length of the input messages.",
    type: 'BadRequestError',
    code: 400,
  },
  anthropic: {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 210345 tokens > 200000 maximum' },
  },
  gemini: [
    {
      error: {
        code: 400,
        message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      },
    },
  ],
  llamaCpp: {
    error: {
      code: 400,
      message:
        'the request exceeds the available context size. try increasing the context size or enable context shift',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 14429,
      n_ctx: 8192,
    },
  },
  lmStudio: {
    error:
      'Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
  },
  bare: { error: { message: 'Request too large for this model.', code: 'context_length_exceeded' } },
};

describe('parseContextOverflow', () => {
  it('reads the window and the prompt from each provider’s wording', () => {
    const read = (body: unknown) => parseContextOverflow(errorBodyMessage(JSON.stringify(body)));
    expect(read(bodies.openai)).toEqual({ limitTokens: 128000, promptTokens: 130512 });
    expect(read(bodies.vllm)).toEqual({ limitTokens: 4096, promptTokens: 4187 });
    expect(read(bodies.vllmNewer)).toEqual({ limitTokens: 32768, promptTokens: 40001 });
    expect(read(bodies.anthropic)).toEqual({ limitTokens: 200000, promptTokens: 210345 });
    expect(read(bodies.gemini)).toEqual({ limitTokens: 1048576, promptTokens: 1200293 });
    expect(read(bodies.llamaCpp)).toEqual({ limitTokens: 8192, promptTokens: 14429 });
    expect(read(bodies.lmStudio)).toEqual({ limitTokens: 8192 });
    // Said without numbers: an overflow all the same, nothing exact to learn.
    expect(read(bodies.bare)).toEqual({});
  });

  it('is not fooled by other refusals', () => {
    expect(parseContextOverflow("Unsupported parameter: 'parallel_tool_calls' is not supported with this model.")).toBe(
      undefined,
    );
    expect(parseContextOverflow('Invalid schema for function lamp__set: 1 is not of type string')).toBe(undefined);
    expect(parseContextOverflow('max_tokens: 100000 > 64000, which is the maximum allowed')).toBe(undefined);
  });
});

describe('a context-exceeded refusal through each adapter', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it.each([
    ['openai', bodies.openai, 400],
    ['openai', bodies.vllm, 400],
    ['openai', bodies.llamaCpp, 400],
    ['anthropic', bodies.anthropic, 400],
    ['gemini', bodies.gemini, 400],
  ] as [Provider, unknown, number][])(
    '%s: a %s refusal is a context_exceeded error carrying the numbers',
    async (provider, body, status) => {
      server.reply({ status, headers: json, body: JSON.stringify(body) });
      const result = await collectStream({ adapter: adapterFor(provider, server.url) });
      expect(result.error?.kind).toBe('context_exceeded');
      expect(result.error?.status).toBe(status);
      expect(parseContextOverflow(result.error?.message ?? '')?.limitTokens).toBeGreaterThan(0);
    },
  );

  it('is never retried: llama.cpp once answered it with a 500, which is otherwise retried', async () => {
    server.reply({
      status: 500,
      headers: json,
      body: JSON.stringify({ error: { ...bodies.llamaCpp.error, code: 500 } }),
    });
    const result = await collectStream({ adapter: adapterFor('openai', server.url, { maxRetries: 2 }) });
    expect(result.error?.kind).toBe('context_exceeded');
    expect(server.requests).toHaveLength(1);
  });
});
