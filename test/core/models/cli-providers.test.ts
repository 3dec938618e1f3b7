import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import type { Provider } from './fixture-adapters.ts';

const root = resolve(import.meta.dirname, '../../..');
const cli = join(root, 'bin/home-agent.mjs');
const fixtures = join(root, 'test/fixtures/streams');

// Each provider's stream calling the two tools every Home Agent has, then a plain closing reply.
const scripts: Record<
  Provider,
  { toolStream: string; contentType: string; finalReply: string; baseUrl: (url: string) => string }
> = {
  openai: {
    toolStream: 'openai-empty-arguments.txt',
    contentType: 'text/event-stream',
    finalReply:
      'data: {"choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    baseUrl: (url) => `${url}/v1`,
  },
  anthropic: {
    toolStream: 'anthropic-empty-arguments.txt',
    contentType: 'text/event-stream',
    finalReply:
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Done."}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    baseUrl: (url) => url,
  },
  gemini: {
    toolStream: 'gemini-empty-arguments.txt',
    contentType: 'text/event-stream',
    finalReply:
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP"}]}\r\n\r\n',
    baseUrl: (url) => url,
  },
  ollama: {
    toolStream: 'ollama-empty-arguments.ndjson',
    contentType: 'application/x-ndjson',
    finalReply: '{"message":{"role":"assistant","content":"Done."},"done":true,"done_reason":"stop"}\n',
    baseUrl: (url) => url,
  },
};

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function resultIdsSent(provider: Provider, body: unknown): unknown {
  const request = body as Record<string, unknown[]>;
  switch (provider) {
    case 'openai':
    case 'ollama':
      return (request.messages as { role: string; tool_call_id?: string }[])
        .filter((message) => message.role === 'tool')
        .map((message) => message.tool_call_id);
    case 'anthropic': {
      const last = (request.messages as { content: { type: string; tool_use_id?: string }[] }[]).at(-1);
      return last?.content.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
    }
    case 'gemini': {
      const last = (request.contents as { parts: { functionResponse?: { name: string } }[] }[]).at(-1);
      return last?.parts.filter((part) => part.functionResponse).map((part) => part.functionResponse?.name);
    }
  }
}

const expectedResults: Record<Provider, { ids: (string | null)[]; sent: string[] }> = {
  openai: { ids: ['call_e1', 'call_e2'], sent: ['call_e1', 'call_e2'] },
  anthropic: { ids: ['toolu_none', 'toolu_blank'], sent: ['toolu_none', 'toolu_blank'] },
  // Gemini sent no ids: the results are paired by name and position.
  gemini: { ids: [null, null], sent: ['output_list_channels', 'system_list_tools'] },
  ollama: { ids: ['call_o1', 'call_o2'], sent: ['call_o1', 'call_o2'] },
};

describe.skipIf(!existsSync(cli))(
  'home-agent ask against each provider (end to end through bin/home-agent.mjs)',
  () => {
    let server: LoopbackModelServer;
    let dataDir: string;
    beforeEach(async () => {
      server = await startLoopbackModelServer();
      dataDir = mkdtempSync(join(tmpdir(), 'home-agent-cli-providers-'));
    });
    afterEach(async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    for (const provider of Object.keys(scripts) as Provider[]) {
      it(`${provider}: the batch carries the streamed calls and the next request carries their results`, async () => {
        const script = scripts[provider];
        server.reply(
          { body: readFileSync(join(fixtures, script.toolStream)), headers: { 'content-type': script.contentType } },
          { body: script.finalReply, headers: { 'content-type': script.contentType } },
        );
        const run = await runCli(
          [
            'ask',
            '--provider',
            provider,
            '--base-url',
            script.baseUrl(server.url),
            '--model',
            'test-model',
            '--api-key-env',
            'HOME_AGENT_TEST_KEY',
            '--data-dir',
            dataDir,
            '--json',
            'list what you have',
          ],
          { HOME_AGENT_TEST_KEY: 'sk-cli-test', HOME_AGENT_NO_OLLAMA_PROBE: '1' },
        );
        expect(run.stderr).not.toContain('sk-cli-test');
        expect(run.code, run.stderr).toBe(0);
        const events = run.stdout
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map(
            (line) => JSON.parse(line) as { type: string; calls?: { name: string; args: unknown; callId: string }[] },
          );
        const batch = events.find((event) => event.type === 'batch/start');
        expect(batch?.calls?.map((call) => ({ name: call.name, args: call.args }))).toEqual([
          { name: 'output_list_channels', args: {} },
          { name: 'system_list_tools', args: {} },
        ]);
        expectedResults[provider].ids.forEach((id, position) => {
          if (id !== null) expect(batch?.calls?.[position]?.callId).toBe(id);
        });
        expect(server.requests).toHaveLength(2);
        expect(resultIdsSent(provider, JSON.parse(server.requests[1]?.body ?? 'null'))).toEqual(
          expectedResults[provider].sent,
        );
      });
    }
  },
);
