import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runModelsCommand } from '../../../host/front/cli/commands/models-command.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

// Lives here rather than under test/host/cli: the models command belongs to the model-adapter work.
describe('home-agent models', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    delete process.env.HOME_AGENT_TEST_KEY;
    await server.close();
  });

  it('prints one model per line, with the key from --api-key-env', async () => {
    process.env.HOME_AGENT_TEST_KEY = 'secret-from-env';
    server.reply({ headers: { 'content-type': 'application/json' }, body: '{"data":[{"id":"m1"},{"id":"m2"}]}' });
    const stdout = capture();
    const stderr = capture();
    const code = await runModelsCommand(
      ['--provider', 'openai', '--base-url', `${server.url}/v1`, '--api-key-env', 'HOME_AGENT_TEST_KEY'],
      { stdout: stdout.stream, stderr: stderr.stream },
    );
    expect(code).toBe(0);
    expect(stdout.text()).toBe('m1\nm2\n');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer secret-from-env');
  });

  it('exits 1 with the reason, never the key, when the server refuses the key', async () => {
    process.env.HOME_AGENT_TEST_KEY = 'secret-from-env';
    server.reply({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"message":"bad key secret-from-env"}}',
    });
    const stdout = capture();
    const stderr = capture();
    const code = await runModelsCommand(
      ['--provider', 'openai', '--base-url', server.url, '--api-key-env', 'HOME_AGENT_TEST_KEY'],
      { stdout: stdout.stream, stderr: stderr.stream },
    );
    expect(code).toBe(1);
    expect(stderr.text()).toContain('API key');
    expect(stderr.text()).not.toContain('secret-from-env');
  });

  it('exits 2 for an unknown provider or an unset key variable', async () => {
    const stderr = capture();
    expect(await runModelsCommand(['--provider', 'nope'], { stdout: capture().stream, stderr: stderr.stream })).toBe(2);
    expect(stderr.text()).toContain('--provider must be one of openai, anthropic, gemini, ollama');
    expect(
      await runModelsCommand(['--provider', 'openai', '--api-key-env', 'HOME_AGENT_TEST_KEY'], {
        stdout: capture().stream,
        stderr: stderr.stream,
      }),
    ).toBe(2);
    expect(stderr.text()).toContain('HOME_AGENT_TEST_KEY is not set');
  });
});
