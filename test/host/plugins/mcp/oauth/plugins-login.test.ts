// `home-agent plugins login|logout mcp-NAME` in-process against a real loopback server behind OAuth:
// the person's browser is a fetch that opens the printed address and follows its redirect.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { runPluginsCommand } from '../../../../../host/front/cli/mcp-client/plugins-command.ts';
import { oauthFileOf, readOAuthFile } from '../../../../../host/plugins/mcp/oauth/oauth-file.ts';
import { startOAuthServer } from './oauth-server.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function io(): { stdout: PassThrough; stderr: PassThrough; signal: AbortSignal; printed(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { stdout, stderr, signal: new AbortController().signal, printed: () => printed };
}

it('login prints the address, takes the browser’s return on 127.0.0.1 and keeps the tokens; logout removes them', async () => {
  const server = await startOAuthServer();
  cleanups.push(() => server.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-login-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
  const login = io();
  const printedAddress = new Promise<string>((resolve) =>
    login.stdout.on('data', () => {
      const found = /^ {2}(http\S+)$/m.exec(login.printed());
      if (found) resolve(found[1]!);
    }),
  );
  const status = runPluginsCommand(['login', 'mcp-remote', '--data-dir', dataDir], login);
  const authorization = await fetch(await printedAddress, { redirect: 'manual' });
  const back = await fetch(authorization.headers.get('location')!);
  expect(await back.text()).toMatch(/Signed in to mcp-remote/);
  expect(await status).toBe(0);
  const file = oauthFileOf(dataDir, 'remote');
  expect(login.printed()).toContain(`Its tokens are kept in ${file}`);
  expect(login.printed()).not.toContain('access-1');
  expect(readOAuthFile(file, 'login').tokens).toMatchObject({ access_token: 'access-1', refresh_token: 'refresh-1' });

  const logout = io();
  expect(await runPluginsCommand(['logout', 'mcp-remote', '--data-dir', dataDir], logout)).toBe(0);
  expect(logout.printed()).toMatch(/Signed out of mcp-remote/);
  expect(existsSync(file)).toBe(false);
});
