// `plugins/sign-in` and `plugins/sign-out` refuse what cannot sign in, each saying why, on a real host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { ApiError } from '../../../host/api/api-error.ts';
import { startOAuthServer } from '../plugins/mcp/oauth/oauth-server.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostWith(servers: Record<string, unknown>): Promise<Host> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-sign-in-api-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: [] }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

async function refusal(call: () => unknown): Promise<{ status: number; message: string }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('it was not refused');
}

describe('plugins/sign-in and plugins/sign-out', () => {
  it('refuse an unknown plugin (404), one that does not sign in (400) and one turned off (400), saying why', async () => {
    const server = await startOAuthServer();
    cleanups.push(() => server.close());
    const host = await hostWith({
      remote: { url: server.url },
      local: { command: process.execPath, args: ['-e', ''] },
    });
    expect(await refusal(() => host.handlers['plugins/sign-in']({ name: 'mcp-nowhere' }))).toEqual({
      status: 404,
      message: "there is no plugin named 'mcp-nowhere'",
    });
    expect(await refusal(() => host.handlers['plugins/sign-in']({ name: 'mcp-local' }))).toEqual({
      status: 400,
      message: 'mcp-local does not sign in: only a Streamable HTTP server does',
    });
    expect(await refusal(() => host.handlers['plugins/sign-out']({ name: 'system' }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^system does not sign in/),
    });
    await host.handlers['plugins/set-enabled']({ name: 'mcp-remote', enabled: false });
    expect(await refusal(() => host.handlers['plugins/sign-in']({ name: 'mcp-remote' }))).toEqual({
      status: 400,
      message: 'mcp-remote is turned off here: turn it on in the Plugins tab, then sign in',
    });
  }, 30_000);
});
