import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../../helpers/run-cli.ts';
import { runServeCommand } from '../../../../host/front/web/serve-command.ts';
import { MCP_SERVE_ADD_ON } from '../../../../host/front/mcp/mcp-serve-add-on.ts';
import { rawRequest } from './raw-http.ts';
import { readToken, WEB_TOKEN } from '../../../../host/secrets/token-file.ts';
import { MCP_TOKEN } from '../../../../host/front/mcp/mcp-token.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-serve-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const environment = { HOME_AGENT_NO_OLLAMA_PROBE: '1', HOME_AGENT_TOKEN: '' };

describe('home-agent serve: a port in use', () => {
  it('exits 1 saying the port is taken and what to do, not with a raw listen EADDRINUSE', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await runCli(['serve', '--port', String(port), '--data-dir', tempDir()], { env: environment });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is in use by another program`);
      expect(result.stderr).toContain('choose another port with --port');
      expect(result.stderr).not.toContain('EADDRINUSE');
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

describe('home-agent serve: tokens', () => {
  it('exits 2 on a non-loopback address without a token, saying why and what to pass', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', tempDir()], {
      env: environment,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to serve on 0.0.0.0 without a token');
    expect(result.stderr).toContain('--token');
    expect(result.stdout).not.toContain('serving at');
  });

  it('exits 2 on a --token under 16 characters, on any address', async () => {
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const result = await runCli(
        ['serve', '--host', host, '--port', '0', '--token', 'short', '--data-dir', tempDir()],
        {
          env: environment,
        },
      );
      expect(result.code, host).toBe(2);
      expect(result.stderr).toContain('--token must be at least 16 characters (got 5)');
    }
  });

  it('exits 2 on a HOME_AGENT_TOKEN under 16 characters', async () => {
    const result = await runCli(['serve', '--port', '0', '--data-dir', tempDir()], {
      env: { ...environment, HOME_AGENT_TOKEN: 'x' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HOME_AGENT_TOKEN must be at least 16 characters (got 1)');
  });
});

describe('home-agent serve: --allowed-host', () => {
  it('serves on 0.0.0.0 with a token given, answering the names given with --allowed-host (repeatable) and no others', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const controller = new AbortController();
    let printed = '';
    const serving = new Promise<string>((resolve) =>
      stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /serving at http:\/\/0\.0\.0\.0:(\d+)\//.exec(printed);
        if (match) resolve(match[1] as string);
      }),
    );
    stderr.resume();
    const token = 'a-token-of-enough-length-42';
    const previous = process.env.HOME_AGENT_NO_OLLAMA_PROBE;
    process.env.HOME_AGENT_NO_OLLAMA_PROBE = '1';
    const exit = runServeCommand(
      [
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--token',
        token,
        '--allowed-host',
        'boiler-pi.example',
        '--allowed-host',
        'home.example:8123',
        '--data-dir',
        tempDir(),
        '--provider',
        'demo',
      ],
      { stdout, stderr, signal: controller.signal },
    );
    try {
      const port = Number(await serving);
      const info = (host: string) =>
        rawRequest({
          port,
          method: 'POST',
          path: '/api/app/info',
          headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
      expect((await info('boiler-pi.example')).status).toBe(200);
      expect((await info(`home.example:${port}`)).status).toBe(200);
      expect((await info(`0.0.0.0:${port}`)).status).toBe(200);
      expect((await info('evil.example')).status).toBe(403);
    } finally {
      controller.abort();
      if (previous === undefined) delete process.env.HOME_AGENT_NO_OLLAMA_PROBE;
      else process.env.HOME_AGENT_NO_OLLAMA_PROBE = previous;
    }
    expect(await exit).toBe(0);
  });
});

describe('home-agent serve --mcp', () => {
  it('prints the MCP line with the MCP credential, never the web token, and tells only the web token’s holder both', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const controller = new AbortController();
    let printed = '';
    const MCP_LINE = /^MCP clients: (http:\/\/127\.0\.0\.1:(\d+)\/mcp) with the header Authorization: Bearer (\S+)$/m;
    const served = new Promise<RegExpExecArray>((resolve) =>
      stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = MCP_LINE.exec(printed);
        if (match) resolve(match);
      }),
    );
    stderr.resume();
    const dataDir = tempDir();
    const previous = process.env.HOME_AGENT_NO_OLLAMA_PROBE;
    const previousToken = process.env.HOME_AGENT_TOKEN;
    process.env.HOME_AGENT_NO_OLLAMA_PROBE = '1';
    delete process.env.HOME_AGENT_TOKEN;
    const exit = runServeCommand(
      ['--port', '0', '--mcp', '--data-dir', dataDir, '--provider', 'demo'],
      { stdout, stderr, signal: controller.signal },
      [MCP_SERVE_ADD_ON],
    );
    try {
      const [, url, port, credential] = (await served) as unknown as [string, string, string, string];
      const web = readToken(dataDir, WEB_TOKEN);
      expect(credential).toBe(readToken(dataDir, MCP_TOKEN));
      expect(credential).not.toBe(web);
      expect(printed).toContain(`#token=${web}`);
      const info = (token: string) =>
        rawRequest({
          port: Number(port),
          method: 'POST',
          path: '/api/app/info',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
      const answer = await info(web!);
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as { result: { mcp: unknown } }).result.mcp).toEqual({ url, credential });
      expect((await info(credential)).status).toBe(403);
    } finally {
      controller.abort();
      if (previous === undefined) delete process.env.HOME_AGENT_NO_OLLAMA_PROBE;
      else process.env.HOME_AGENT_NO_OLLAMA_PROBE = previous;
      if (previousToken !== undefined) process.env.HOME_AGENT_TOKEN = previousToken;
    }
    expect(await exit).toBe(0);
  });
});
