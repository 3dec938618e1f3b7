import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelAdapter } from '../../../core/models/model-adapter.ts';
import { createAnthropicAdapter } from '../../../core/models/anthropic/create-anthropic-adapter.ts';
import { createGeminiAdapter } from '../../../core/models/gemini/create-gemini-adapter.ts';
import { createOllamaAdapter } from '../../../core/models/ollama/create-ollama-adapter.ts';
import { createOpenAiAdapter } from '../../../core/models/openai/create-openai-adapter.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';

// Recorded real streams live beside the repository (../shared), never copied into it.
const fixtureFolder = resolve(import.meta.dirname, '../../../../shared/fixtures/streams');
const present = existsSync(join(fixtureFolder, 'expected.json'));

const expectedSchema = z.record(
  z.string(),
  z.object({
    provider: z.enum(['openai', 'anthropic', 'gemini', 'ollama']),
    framing: z.string(),
    calls: z.array(
      z.object({
        id: z.string().nullable(),
        name: z.string(),
        arguments: z.record(z.string(), z.unknown()).nullable(),
        execute: z.boolean(),
      }),
    ),
  }),
);

const factories: Record<string, ((baseUrl: string) => ModelAdapter) | undefined> = {
  openai: (baseUrl) => createOpenAiAdapter({ baseUrl: `${baseUrl}/v1`, model: 'recorded', maxRetries: 0 }),
  gemini: (baseUrl) => createGeminiAdapter({ baseUrl, model: 'recorded', apiKey: 'test-key', maxRetries: 0 }),
  ollama: (baseUrl) => createOllamaAdapter({ baseUrl, model: 'recorded', maxRetries: 0 }),
  anthropic: (baseUrl) => createAnthropicAdapter({ baseUrl, model: 'recorded', apiKey: 'test-key', maxRetries: 0 }),
};

function contentType(framing: string): string {
  if (framing.startsWith('ndjson')) return 'application/x-ndjson';
  if (framing.startsWith('json-array')) return 'application/json';
  return 'text/event-stream';
}

const title = present
  ? 'recorded provider streams (../shared/fixtures/streams)'
  : 'recorded provider streams — skipped: ../shared/fixtures/streams is missing (a clone without the shared folder)';

describe.skipIf(!present)(title, () => {
  const expected = present
    ? expectedSchema.parse(JSON.parse(readFileSync(join(fixtureFolder, 'expected.json'), 'utf8')))
    : {};
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  for (const [file, entry] of Object.entries(expected)) {
    const factory = factories[entry.provider];
    for (const chunkSize of [7, 4096]) {
      it.skipIf(!factory)(`${file} in ${chunkSize}-byte chunks yields exactly the recorded calls`, async () => {
        server.reply({
          body: readFileSync(join(fixtureFolder, file)),
          chunkSize,
          headers: { 'content-type': contentType(entry.framing) },
        });
        const result = await collectStream({ adapter: (factory as (baseUrl: string) => ModelAdapter)(server.url) });
        expect(result.error).toBeUndefined();
        const executable = result.calls.filter((call) => call.complete);
        const wanted = entry.calls.filter((call) => call.execute);
        expect(executable.map((call) => ({ name: call.name, args: call.args }))).toEqual(
          wanted.map((call) => ({ name: call.name, args: call.arguments })),
        );
        wanted.forEach((call, position) => {
          if (call.id !== null) expect(executable[position]?.id).toBe(call.id);
        });
        for (const call of entry.calls.filter((candidate) => !candidate.execute)) {
          expect(executable.some((made) => made.id === call.id || (call.id === null && made.name === call.name))).toBe(
            false,
          );
        }
      });
    }
  }
});
