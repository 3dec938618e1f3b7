// `home-agent plugins login|logout mcp-NAME` while `home-agent serve` runs the home: real processes (serve,
// the CLI), a real loopback MCP server behind OAuth 2.1 (oauth-server.ts), the person's browser a fetch
// that opens the printed address and follows its redirect. The running host signs in and uses the
// server at once; nothing is restarted.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openLinkDoor } from '../../../../../host/link/find-home-holder.ts';
import { LinkApiClient } from '../../../../../host/link/link-api-client.ts';
import { linkPathOf } from '../../../../../host/link/link-path.ts';
import { hostNoticeSchema } from '../../../../../host/contract/api-contract.ts';
import { oauthFileOf, readOAuthFile } from '../../../../../host/plugins/mcp/oauth/oauth-file.ts';
import { homeAgentCommand, REPO_ROOT } from '../../../../helpers/compiled-entries.ts';
import { runCli } from '../../../../helpers/run-cli.ts';
import { startServeChild } from '../../../../helpers/serve-child.ts';
import { startOAuthServer } from '../../../plugins/mcp/oauth/oauth-server.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The running host's API over the home's socket, as another process of the home sees it. */
async function hostApi(dataDir: string): Promise<LinkApiClient> {
  const opened = await openLinkDoor(linkPathOf(dataDir).path, 'api', { command: 'the test' });
  if (!opened?.welcome.ok) throw new Error('no host answers on the home socket');
  const api = new LinkApiClient(opened.socket);
  cleanups.push(() => api.close());
  return api;
}

/** Resolves once the plugin's status is `status`: looked at now and at every `plugins/changed` notice. */
function statusBecomes(api: LinkApiClient, plugin: string, status: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = (): void =>
      void api.call('plugins/list', {}).then((listed) => {
        if (listed.plugins.find((each) => each.name === plugin)?.status === status) resolve();
      }, reject);
    api.onNotice = (notice) => {
      if (hostNoticeSchema.safeParse(notice).data?.type === 'plugins/changed') look();
    };
    look();
  });
}

it('login through the running serve: it signs in, keeps the tokens and uses the server at once; logout asks for sign-in again', async () => {
  const server = await startOAuthServer();
  cleanups.push(() => server.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-login-host-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
  const served = await startServeChild(['--data-dir', dataDir]);
  cleanups.push(() => served.stop());
  const api = await hostApi(dataDir);
  await statusBecomes(api, 'mcp-remote', 'sign-in');

  const login = spawn(
    process.execPath,
    [...homeAgentCommand(), 'plugins', 'login', 'mcp-remote', '--data-dir', dataDir],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  cleanups.push(() => login.exitCode === null && login.kill());
  let printed = '';
  login.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  login.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => login.once('exit', resolve));
  const address = await new Promise<string>((resolve, reject) => {
    login.stdout.on('data', () => {
      const found = /^ {2}(http\S+)$/m.exec(printed);
      if (found) resolve(found[1]!);
    });
    void exited.then(() => reject(new Error(`plugins login exited first:\n${printed}`)));
  });
  const ready = statusBecomes(api, 'mcp-remote', 'ready');
  const authorization = await fetch(address, { redirect: 'manual' });
  await authorization.body?.cancel();
  const back = await fetch(authorization.headers.get('location')!);
  expect(await back.text()).toMatch(/Signed in to mcp-remote/);
  await ready;
  expect(await exited).toBe(0);
  expect(printed).toMatch(/runs this home: it signs in to mcp-remote/);
  expect(printed).toMatch(/Signed in to mcp-remote: .* uses it now/);
  expect(printed).not.toContain('access-1');
  const listed = (await api.call('plugins/list', {})).plugins.find((each) => each.name === 'mcp-remote');
  expect(listed?.tools).toEqual(['mcp__remote__echo']);
  // serve has no keychain: the owner-only file of the data folder, written by the host.
  const file = oauthFileOf(dataDir, 'remote');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readOAuthFile(file, 'login').tokens).toMatchObject({ access_token: 'access-1' });

  const signInAgain = statusBecomes(api, 'mcp-remote', 'sign-in');
  const logout = await runCli(['plugins', 'logout', 'mcp-remote', '--data-dir', dataDir]);
  expect(logout.code).toBe(0);
  expect(logout.stdout).toMatch(/Signed out of mcp-remote: .* removed its tokens/);
  await signInAgain;
  // Asking again registers the client again (its registration is kept); the tokens are gone.
  expect(existsSync(file) ? readOAuthFile(file, 'login').tokens : undefined).toBeUndefined();
}, 90_000);
