import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REQUEST_BODY_PIECE, requestBodyOf } from '../../../../core/models/http/request-body.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../../helpers/loopback-model-server.ts';
import { collectStream } from '../collect-stream.ts';
import { adapterFor } from '../fixture-adapters.ts';

const OPENAI_END =
  'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

describe('request bodies are sent in bounded pieces', () => {
  it('keeps a short body a string', () => {
    expect(requestBodyOf('{"a":1}')).toBe('{"a":1}');
  });

  it('splits a long body into pieces of at most the piece size, never inside a surrogate pair', async () => {
    // After `{"text":"` (9 code units), the first 😀 (two code units) straddles the first boundary.
    const text = `${'a'.repeat(REQUEST_BODY_PIECE - 10)}😀${'b'.repeat(REQUEST_BODY_PIECE * 4)}`;
    const json = JSON.stringify({ text });
    expect(json.charCodeAt(REQUEST_BODY_PIECE - 1)).toBe('😀'.charCodeAt(0));
    const body = requestBodyOf(json);
    expect(body).toBeInstanceOf(Blob);
    const blob = body as Blob;
    expect(blob.size).toBe(Buffer.byteLength(json, 'utf8'));
    expect(await blob.text()).toBe(json);
    const reader = blob.stream().getReader();
    let pieces = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pieces += 1;
      expect(read.value.byteLength).toBeLessThanOrEqual(REQUEST_BODY_PIECE * 3);
    }
    expect(pieces).toBeGreaterThanOrEqual(5);
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

  it('arrives whole, with its Content-Length and without chunked encoding', async () => {
    server.reply({ body: OPENAI_END, headers: { 'content-type': 'text/event-stream' } });
    const text = `Lamps: ${'ein Zimmer, eine Lampe — 💡; '.repeat(8_000)}`;
    const result = await collectStream({
      adapter: adapterFor('openai', server.url),
      request: { system: 'You control lamps.', tools: [], messages: [{ role: 'user', text }] },
    });
    expect(result.error).toBeUndefined();
    const recorded = server.requests.at(-1)!;
    expect(recorded.headers['transfer-encoding']).toBeUndefined();
    expect(Number(recorded.headers['content-length'])).toBe(Buffer.byteLength(recorded.body, 'utf8'));
    expect(recorded.headers['content-type']).toBe('application/json');
    const body = JSON.parse(recorded.body) as { messages: { role: string; content: string }[] };
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: text });
  });
});
