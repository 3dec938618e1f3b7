import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REQUEST_BODY_CHUNK, SHORT_REQUEST_BODY, requestBodyOf } from '../../../../core/models/http/request-body.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../../helpers/loopback-model-server.ts';
import { collectStream } from '../collect-stream.ts';
import { adapterFor, type Provider } from '../fixture-adapters.ts';

const OPENAI_END =
  'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

/** Every chunk a streamed body hands `fetch`, in order, with its length as given. */
async function chunksOf(json: string): Promise<{ chunks: Uint8Array[]; contentLength: number }> {
  const encoded = requestBodyOf(json);
  if (!('contentLength' in encoded)) throw new Error('expected a streamed body');
  const chunks: Uint8Array[] = [];
  const reader = encoded.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return { chunks, contentLength: encoded.contentLength };
}

describe('request bodies are encoded into buffers of one size', () => {
  it('keeps a short body a string', () => {
    expect(requestBodyOf('{"a":1}')).toEqual({ body: '{"a":1}' });
    const short = JSON.stringify({ text: 'a'.repeat(SHORT_REQUEST_BODY - 20) });
    expect(requestBodyOf(short)).toEqual({ body: short });
  });

  it('sends every byte of a long body, characters whole across chunk borders, with its exact length', async () => {
    // Two-, three- and four-byte characters land on every offset of a chunk's end.
    const text = `Lamps: ${'Zimmer ü — 💡 €; '.repeat(20_000)}`;
    const json = JSON.stringify({ messages: [{ role: 'user', content: text }] });
    const { chunks, contentLength } = await chunksOf(json);
    const bytes = Buffer.concat(chunks);
    expect(contentLength).toBe(Buffer.byteLength(json, 'utf8'));
    expect(bytes.length).toBe(contentLength);
    expect(bytes.toString('utf8')).toBe(json);
    // Each chunk decodes alone: no character is split between two.
    expect(chunks.map((chunk) => new TextDecoder('utf-8', { fatal: true }).decode(chunk)).join('')).toBe(json);
  });

  it('asks for blocks of one size, whatever the length of the body', async () => {
    for (const repeat of [300, 1_000, 5_000, 20_001, 40_003]) {
      const json = JSON.stringify({ history: 'Turn: switch both lamps on. '.repeat(repeat) });
      const { chunks, contentLength } = await chunksOf(json);
      expect(chunks.length).toBe(Math.ceil(contentLength / REQUEST_BODY_CHUNK));
      for (const chunk of chunks) expect(chunk.buffer.byteLength).toBe(REQUEST_BODY_CHUNK);
      // Filled before the next is started: only the last chunk is used in part.
      for (const chunk of chunks.slice(0, -1)) expect(chunk.byteLength).toBeGreaterThan(REQUEST_BODY_CHUNK - 4);
    }
  });
});

describe('a long request over a real loopback server', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const text = `Lamps: ${'ein Zimmer, eine Lampe — 💡; '.repeat(8_000)}`;

  it.each<Provider>(['openai', 'anthropic', 'gemini', 'ollama'])(
    'arrives whole through %s, with its Content-Length and without chunked encoding',
    async (provider) => {
      server.reply({ status: 500, body: 'no reply for this format' });
      await collectStream({
        adapter: adapterFor(provider, server.url),
        request: { system: 'You control lamps.', tools: [], messages: [{ role: 'user', text }] },
      });
      const recorded = server.requests.at(-1)!;
      expect(recorded.headers['transfer-encoding']).toBeUndefined();
      expect(Number(recorded.headers['content-length'])).toBe(Buffer.byteLength(recorded.body, 'utf8'));
      expect(recorded.headers['content-type']).toBe('application/json');
      expect(recorded.body).toContain(JSON.stringify(text));
    },
  );

  it('follows a 307 and a 308 with the body sent whole again, as fetch does for a body it can replay', async () => {
    server.reply(
      { status: 307, body: '', headers: { location: '/v1/moved/chat/completions' } },
      { status: 308, body: '', headers: { location: `${server.url}/v1/moved-again/chat/completions` } },
      { body: OPENAI_END, headers: { 'content-type': 'text/event-stream' } },
    );
    const result = await collectStream({
      adapter: adapterFor('openai', server.url),
      request: { system: 'You control lamps.', tools: [], messages: [{ role: 'user', text }] },
    });
    expect(result.error).toBeUndefined();
    expect(server.requests.map((recorded) => recorded.url)).toEqual([
      '/v1/chat/completions',
      '/v1/moved/chat/completions',
      '/v1/moved-again/chat/completions',
    ]);
    for (const recorded of server.requests) {
      expect(recorded.method).toBe('POST');
      expect(recorded.body).toContain(JSON.stringify(text));
    }
  });

  it('does not follow a redirect to another origin, where the API key would go with it', async () => {
    const elsewhere = server.url.replace('127.0.0.1', 'localhost');
    server.reply(
      { status: 307, body: '', headers: { location: `${elsewhere}/v1/chat/completions` } },
      { body: OPENAI_END, headers: { 'content-type': 'text/event-stream' } },
    );
    const result = await collectStream({
      adapter: adapterFor('openai', server.url),
      request: { system: 'You control lamps.', tools: [], messages: [{ role: 'user', text }] },
    });
    expect(result.error?.message).toContain('307');
    expect(server.requests).toHaveLength(1);
  });

  it('is sent whole again when the request is retried', async () => {
    server.reply(
      { status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'content-type': 'application/json' } },
      { body: OPENAI_END, headers: { 'content-type': 'text/event-stream' } },
    );
    const result = await collectStream({
      adapter: adapterFor('openai', server.url, { maxRetries: 1 }),
      request: { system: 'You control lamps.', tools: [], messages: [{ role: 'user', text }] },
    });
    expect(result.error).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    for (const recorded of server.requests) {
      expect(Number(recorded.headers['content-length'])).toBe(Buffer.byteLength(recorded.body, 'utf8'));
      const body = JSON.parse(recorded.body) as { messages: { role: string; content: string }[] };
      expect(body.messages.at(-1)).toEqual({ role: 'user', content: text });
    }
  });
});
