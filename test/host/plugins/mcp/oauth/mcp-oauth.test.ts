// OAuth 2.1 sign-in of the MCP client plugin against a real loopback server behind OAuth
// (oauth-server.ts): the person's browser is a fetch that follows the Sign in link and its redirect.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection, type McpStatus } from '../../../../../host/plugins/mcp/mcp-connection.ts';
import { readMcpConfig, type McpServerConfig } from '../../../../../host/plugins/mcp/mcp-config.ts';
import { mcpOAuthOf } from '../../../../../host/plugins/mcp/oauth/mcp-oauth-of.ts';
import { OAuthFileError, oauthFileOf, readOAuthFile } from '../../../../../host/plugins/mcp/oauth/oauth-file.ts';
import { startOAuthServer, type OAuthServer } from './oauth-server.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function signInSetup(): Promise<{ server: OAuthServer; connection: McpConnection; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-oauth-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startOAuthServer();
  cleanups.push(() => server.close());
  const config: McpServerConfig = {
    name: 'remote',
    pluginName: 'mcp-remote',
    transport: { kind: 'http', url: server.url, headers: {} },
  };
  const connection = new McpConnection({
    server: config,
    environment: {},
    maxMessageBytes: 4 * 1024 * 1024,
    version: 'test',
    log: () => {},
    oauth: mcpOAuthOf({ config, environment: {}, dataDir }),
  });
  cleanups.push(() => connection.stop());
  connection.start();
  await connection.whenSettled();
  return { server, connection, dataDir };
}

function statusBecomes(connection: McpConnection, status: McpStatus): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = connection.changes.subscribe(() => {
      if (connection.status === status) {
        unsubscribe();
        resolve();
      }
    });
  });
}

/** The person's browser: opens the authorization address; resolves with where it is sent back (the loopback listener). */
async function authorize(url: string): Promise<string> {
  const answer = await fetch(url, { redirect: 'manual' });
  await answer.body?.cancel();
  const back = answer.headers.get('location');
  if (back === null) throw new Error(`no redirect (${answer.status})`);
  return back;
}

describe('OAuth 2.1 sign-in to a remote MCP server', () => {
  it('shows sign-in needed with the link, and the loopback redirect signs in and uses the server', async () => {
    const { connection, dataDir } = await signInSetup();
    expect(connection.status).toBe('sign-in');
    const signIn = connection.signIn();
    expect(signIn?.again).toBe(false);
    expect(connection.reason).toMatch(/home-agent plugins login mcp-remote/);
    const back = await authorize(signIn!.url);
    expect(new URL(back).hostname).toBe('127.0.0.1');
    const ready = statusBecomes(connection, 'ready');
    const page = await fetch(back);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Signed in to mcp-remote/);
    await ready;
    expect(connection.tools.map((tool) => tool.original)).toEqual(['echo']);
    // The tokens are in an owner-only file of the data folder.
    const file = oauthFileOf(dataDir, 'remote');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOAuthFile(file, 'login').tokens).toMatchObject({ access_token: 'access-1' });
  });

  it('refuses a redirect that carries another sign-in’s state, and stays signed out', async () => {
    const { connection } = await signInSetup();
    const back = new URL(await authorize(connection.signIn()!.url));
    back.searchParams.set('state', 'someone-elses');
    const page = await fetch(back);
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/another sign-in/);
    expect(connection.status).toBe('sign-in');
  });

  it('says "sign in again" when the server refuses the tokens kept and their refresh', async () => {
    const { server, connection } = await signInSetup();
    const ready = statusBecomes(connection, 'ready');
    await fetch(await authorize(connection.signIn()!.url));
    await ready;
    server.revoke();
    await connection.stop();
    connection.start();
    await connection.whenSettled();
    expect(connection.status).toBe('sign-in');
    expect(connection.signIn()?.again).toBe(true);
    expect(connection.reason).toMatch(/sign in again/);
  });

  it('names the sign-in file and how to make it private when other users may read it, instead of connecting', async () => {
    const { connection, dataDir } = await signInSetup();
    const ready = statusBecomes(connection, 'ready');
    await fetch(await authorize(connection.signIn()!.url));
    await ready;
    await connection.stop();
    const file = oauthFileOf(dataDir, 'remote');
    chmodSync(file, 0o644);
    connection.start();
    await connection.whenSettled();
    expect(connection.status).not.toBe('ready');
    expect(connection.reason).toContain(`chmod 600 ${file}`);
  });
});

describe('the sign-in file', () => {
  it('is refused when other users may read it, saying how to make it private', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-oauth-file-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const file = oauthFileOf(dataDir, 'remote');
    writeFileSync(file, '{"tokens":{"access_token":"a","token_type":"Bearer"}}', { mode: 0o600 });
    expect(readOAuthFile(file, 'login').tokens).toMatchObject({ access_token: 'a' });
    chmodSync(file, 0o644);
    expect(() => readOAuthFile(file, 'login')).toThrow(OAuthFileError);
    expect(() => readOAuthFile(file, 'login')).toThrow(/chmod 600/);
  });
});

describe('mcp.json for a server that signs in', () => {
  it('takes a pre-registered client with its secret as ${VAR} and scopes, and refuses a secret written out', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-oauth-config-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          good: { url: 'https://example.com/mcp', clientId: 'id-1', clientSecret: '${SECRET}', scopes: ['mcp:read'] },
          bad: { url: 'https://example.com/mcp', clientId: 'id-1', clientSecret: 'sk-written-out' },
        },
      }),
    );
    const config = readMcpConfig({ file, required: true });
    expect(config.servers.map((server) => server.transport)).toEqual([
      {
        kind: 'http',
        url: 'https://example.com/mcp',
        headers: {},
        oauth: { clientId: 'id-1', clientSecret: '${SECRET}', scopes: ['mcp:read'] },
      },
    ]);
    expect(config.problems.join('\n')).toMatch(/"bad" was refused: clientSecret must name an environment variable/);
    expect(config.problems.join('\n')).not.toMatch(/sk-written-out/);
    expect(readFileSync(file, 'utf8')).not.toMatch(/access/);
  });
});
