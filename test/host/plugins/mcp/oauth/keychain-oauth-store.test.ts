// An MCP server's OAuth tokens in the OS keychain where the host has one (the desktop app), as API keys
// are. Electron's safeStorage cannot run here: the stand-in cipher of the API-key tests plays the
// keychain (a reversible transform whose output never holds the plain text), so the rest is real: the
// host, the secrets file, a loopback MCP server behind OAuth 2.1 (oauth-server.ts).
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../../../core/models/scripted/scripted-model.ts';
import { createHost, type Host } from '../../../../../host/app/create-host.ts';
import { EncryptedFileSecretStore } from '../../../../../host/secrets/encrypted-file-secret-store.ts';
import type { StringCipher } from '../../../../../host/secrets/secret-store.ts';
import { oauthFileOf, readOAuthFile } from '../../../../../host/plugins/mcp/oauth/oauth-file.ts';
import { oauthSecretName } from '../../../../../host/plugins/mcp/oauth/keychain-oauth-store.ts';
import { runPluginsCommand } from '../../../../../host/front/cli/mcp-client/plugins-command.ts';
import { startOAuthServer, type OAuthServer } from './oauth-server.ts';

const cipher = (available = true): StringCipher => ({
  isAvailable: () => available,
  encrypt: (text) => Buffer.from([...Buffer.from(text, 'utf8')].map((byte) => byte ^ 0x5a)),
  decrypt: (data) => Buffer.from([...data].map((byte) => byte ^ 0x5a)).toString('utf8'),
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every file under `dir`, as bytes read as text, joined: what must never hold a token. */
function everythingIn(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(dir, file))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

async function setup(): Promise<{ server: OAuthServer; dataDir: string; secrets: EncryptedFileSecretStore }> {
  const server = await startOAuthServer();
  cleanups.push(() => server.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-oauth-keychain-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
  const secrets = new EncryptedFileSecretStore({ file: path.join(dataDir, 'secrets.json'), cipher: cipher() });
  return { server, dataDir, secrets };
}

async function startHost(dataDir: string, secrets?: EncryptedFileSecretStore): Promise<Host> {
  const host = await createHost({
    dataDir,
    transport: secrets ? 'electron' : 'web',
    model: new ScriptedModel({ replies: [] }),
    ...(secrets ? { secrets } : {}),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

/** Resolves once the plugin's status is `status`: looked at now and at every notice. */
function statusBecomes(host: Host, status: string): Promise<void> {
  return new Promise((resolve) => {
    const look = (): void =>
      void Promise.resolve(host.handlers['plugins/list']({})).then((listed) => {
        if (listed.plugins.find((each) => each.name === 'mcp-remote')?.status === status) {
          stop();
          resolve();
        }
      });
    const stop = host.notices.subscribe(look);
    look();
  });
}

describe('OAuth tokens in the keychain', () => {
  it('keeps a sign-in only as ciphertext where the host has a keychain: no token text in any file', async () => {
    const { dataDir, secrets } = await setup();
    const host = await startHost(dataDir, secrets);
    await statusBecomes(host, 'sign-in');
    const started = await host.handlers['plugins/sign-in']({ name: 'mcp-remote' });
    expect(started.keptIn).toMatch(/OS keychain/);
    const ready = statusBecomes(host, 'ready');
    const authorization = await fetch(started.url!, { redirect: 'manual' });
    await authorization.body?.cancel();
    expect(await (await fetch(authorization.headers.get('location')!)).text()).toMatch(/Signed in/);
    await ready;
    expect(JSON.parse(secrets.get(oauthSecretName('remote'))!)).toMatchObject({
      tokens: { access_token: 'access-1', refresh_token: 'refresh-1' },
    });
    expect(existsSync(oauthFileOf(dataDir, 'remote'))).toBe(false);
    const disk = everythingIn(dataDir);
    expect(disk).not.toContain('access-1');
    expect(disk).not.toContain('refresh-1');

    expect(await host.handlers['plugins/sign-out']({ name: 'mcp-remote' })).toEqual({ removed: true });
    expect(secrets.has(oauthSecretName('remote'))).toBe(false);
  }, 60_000);

  it('`plugins logout` with no app open removes the sign-in the keychain keeps, without the keychain', async () => {
    const { dataDir, secrets } = await setup();
    secrets.set(oauthSecretName('remote'), JSON.stringify({ tokens: { access_token: 'access-1' } }));
    let printed = '';
    const stdout = new PassThrough();
    stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const io = { stdout, stderr: stdout, signal: new AbortController().signal };
    expect(await runPluginsCommand(['logout', 'mcp-remote', '--data-dir', dataDir], io)).toBe(0);
    expect(printed).toMatch(/Signed out of mcp-remote: its tokens were removed/);
    expect(secrets.has(oauthSecretName('remote'))).toBe(false);
  });

  it('moves a plain token file into the keychain when a host with one starts, and uses it', async () => {
    const { dataDir, secrets } = await setup();
    const file = oauthFileOf(dataDir, 'remote');
    // What `plugins login` leaves where no keychain runs (the terminal with no window open).
    writeFileSync(
      file,
      JSON.stringify({ tokens: { access_token: 'access-1', token_type: 'Bearer', refresh_token: 'refresh-1' } }),
      { mode: 0o600 },
    );
    const host = await startHost(dataDir, secrets);
    await statusBecomes(host, 'ready');
    expect(existsSync(file)).toBe(false);
    expect(everythingIn(dataDir)).not.toContain('access-1');
    expect(JSON.parse(secrets.get(oauthSecretName('remote'))!)).toMatchObject({ tokens: { access_token: 'access-1' } });
  }, 60_000);

  it('never takes in a plain file others could have written: it stays, and the server is not used with it', async () => {
    const { dataDir, secrets } = await setup();
    const file = oauthFileOf(dataDir, 'remote');
    writeFileSync(file, JSON.stringify({ tokens: { access_token: 'access-1', token_type: 'Bearer' } }));
    chmodSync(file, 0o644);
    const host = await startHost(dataDir, secrets);
    await statusBecomes(host, 'failed');
    expect(existsSync(file)).toBe(true);
    expect(secrets.has(oauthSecretName('remote'))).toBe(false);
  }, 60_000);

  it('keeps the owner-only file where the keychain cannot encrypt (no keyring), as serve does', async () => {
    const { dataDir } = await setup();
    const secrets = new EncryptedFileSecretStore({ file: path.join(dataDir, 'secrets.json'), cipher: cipher(false) });
    const host = await startHost(dataDir, secrets);
    await statusBecomes(host, 'sign-in');
    const started = await host.handlers['plugins/sign-in']({ name: 'mcp-remote' });
    const file = oauthFileOf(dataDir, 'remote');
    expect(started.keptIn).toBe(`${file} (readable by you only)`);
    const ready = statusBecomes(host, 'ready');
    const authorization = await fetch(started.url!, { redirect: 'manual' });
    await authorization.body?.cancel();
    await (await fetch(authorization.headers.get('location')!)).text();
    await ready;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOAuthFile(file, 'login').tokens).toMatchObject({ access_token: 'access-1' });
  }, 60_000);
});
