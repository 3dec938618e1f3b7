import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';
import { adapterFor, contentTypeFor } from './fixture-adapters.ts';

const folder = resolve(import.meta.dirname, '../../fixtures/streams');
const manifest = z
  .record(
    z.string(),
    z.object({
      provider: z.enum(['openai', 'anthropic', 'gemini', 'ollama']),
      framing: z.string(),
      text: z.string(),
      error: z.string().optional(),
      calls: z.array(
        z.object({
          id: z.string().nullable(),
          name: z.string(),
          arguments: z.record(z.string(), z.unknown()).nullable(),
          execute: z.boolean(),
        }),
      ),
    }),
  )
  .parse(JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8')));

describe('model adapters on the project quirk fixtures (test/fixtures/streams)', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  for (const [file, entry] of Object.entries(manifest)) {
    // 1 byte per write splits every multi-byte UTF-8 character across HTTP chunks.
    for (const chunkSize of [1, 5, undefined]) {
      it(`${file} (${chunkSize ? `${chunkSize}-byte chunks` : 'one write'}) yields the hand-computed calls, text and outcome`, async () => {
        server.reply({
          body: readFileSync(join(folder, file)),
          chunkSize,
          headers: { 'content-type': contentTypeFor(entry.framing) },
        });
        const result = await collectStream({ adapter: adapterFor(entry.provider, server.url) });
        expect(result.error?.kind).toBe(entry.error);
        expect(result.text).toBe(entry.text);
        const executable = result.calls.filter((call) => call.complete);
        const wanted = entry.calls.filter((call) => call.execute);
        expect(executable.map((call) => ({ name: call.name, args: call.args }))).toEqual(
          wanted.map((call) => ({ name: call.name, args: call.arguments })),
        );
        wanted.forEach((call, position) => {
          if (call.id !== null) expect(executable[position]?.id).toBe(call.id);
        });
        if (entry.error) {
          // What arrived before the cut was passed on, and none of it may run.
          const client = entry.calls.filter((call) => !call.id?.startsWith('srvtoolu'));
          expect(result.calls.map((call) => call.name)).toEqual(client.map((call) => call.name));
          expect(result.calls.every((call) => !call.complete)).toBe(true);
        }
        const ids = result.calls.map((call) => call.id);
        expect(new Set(ids).size).toBe(ids.length);
      });
    }
  }

  it('makes up the same ids for the same stream, distinct per step', async () => {
    const body = readFileSync(join(folder, 'ollama-index-zero-every-call.ndjson'));
    server.reply({ body, headers: { 'content-type': 'application/x-ndjson' } });
    const adapter = adapterFor('ollama', server.url);
    const first = await collectStream({ adapter });
    const again = await collectStream({ adapter });
    const laterStep = await collectStream({
      adapter,
      request: {
        system: '',
        tools: [],
        messages: [
          { role: 'user', text: 'hi' },
          { role: 'assistant', text: 'hello', toolCalls: [] },
          { role: 'user', text: 'lamps' },
        ],
      },
    });
    expect(first.calls.map((call) => call.id)).toEqual(again.calls.map((call) => call.id));
    const earlier = new Set(first.calls.map((call) => call.id));
    expect(laterStep.calls.some((call) => earlier.has(call.id))).toBe(false);
  });
});
