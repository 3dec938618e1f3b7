import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkPathOf } from '../../../host/link/link-path.ts';
import { holdHomeLink, HomeHeldError } from '../../../host/link/hold-home-link.ts';
import { openLinkDoor } from '../../../host/link/find-home-holder.ts';
import { McpRelay, type McpBackend } from '../../../host/front/mcp/mcp-relay.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ha-link-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const holder = { pid: process.pid, command: 'home-agent serve', kind: 'window' as const, version: 'test' };

describe('the home socket', () => {
  it('lives in the data folder, or in the runtime folder when that path is too long for a socket', () => {
    expect(linkPathOf('/home/ann/.local/share/home-agent').path).toBe('/home/ann/.local/share/home-agent/host.sock');
    const deep = `/home/ann/${'very-long-folder-name/'.repeat(5)}home-agent`;
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    const fallback = linkPathOf(deep, env);
    // 108 bytes with the terminating zero is sun_path's size on Linux.
    expect(Buffer.byteLength(`${deep}/host.sock`)).toBeGreaterThan(107);
    expect(fallback.folder).toBe('/run/user/1000/home-agent');
    expect(Buffer.byteLength(fallback.path)).toBeLessThanOrEqual(107);
    expect(linkPathOf(deep, env).path).toBe(fallback.path);
    expect(linkPathOf(`${deep}-2`, env).path).not.toBe(fallback.path);
  });

  it('is owner-only, and names its holder to a second host', async () => {
    const dataDir = folder();
    const held = await holdHomeLink({ dataDir, holder, doors: {}, log: () => {} });
    cleanups.push(() => held.close());
    expect(statSync(held.path).mode & 0o777).toBe(0o600);
    const second = holdHomeLink({ dataDir, holder: { ...holder, pid: 1 }, doors: {}, log: () => {} });
    await expect(second).rejects.toBeInstanceOf(HomeHeldError);
    await expect(second).rejects.toThrow(`already served by home-agent serve (pid ${process.pid})`);
  });

  it('replaces a socket its host left behind (killed), and answers a door it lacks with a refusal', async () => {
    const dataDir = folder();
    const socketPath = path.join(dataDir, 'host.sock');
    // A host killed with SIGKILL leaves its socket file, with nobody listening.
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => { console.log('up'); process.kill(process.pid, 'SIGKILL'); })`,
    ]);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(statSync(socketPath).isSocket()).toBe(true);
    const held = await holdHomeLink({ dataDir, holder, doors: {}, log: () => {} });
    cleanups.push(() => held.close());
    const opened = await openLinkDoor(held.path, 'turn', { command: 'home-agent ask' });
    cleanups.push(() => void opened?.socket.destroy());
    expect(opened?.welcome).toEqual({
      ok: false,
      holder,
      error: "home-agent serve does not serve 'turn' to other processes",
    });
  });

  it('refuses a first line that is not a hello', async () => {
    const dataDir = folder();
    const held = await holdHomeLink({ dataDir, holder, doors: {}, log: () => {} });
    cleanups.push(() => held.close());
    const socket = connect(held.path);
    cleanups.push(() => void socket.destroy());
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.write('{"jsonrpc":"2.0","id":1,"method":"initialize"}\n');
    await new Promise((resolve) => socket.once('end', resolve));
    expect(JSON.parse(answer)).toMatchObject({ ok: false, error: 'the first line is not a Home Agent hello' });
  });
});

/** A backend the test plays: what it was sent, and a way to answer or end it. */
function playedBackend(): McpBackend & { sent: string[]; answer(line: string): void; end(): void } {
  const listeners: ((line: string) => void)[] = [];
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const sent: string[] = [];
  return {
    sent,
    send: (line) => void sent.push(line),
    onLine: (listener) => void listeners.push(listener),
    ended,
    close: async () => end(),
    answer: (line) => listeners.forEach((listener) => listener(line)),
    end: () => end(),
  };
}

describe('McpRelay', () => {
  it('ends a call the lost host never answered as one that may have acted, and sets up the next host', async () => {
    const toClient: string[] = [];
    const relay = new McpRelay((line) => toClient.push(line));
    const first = playedBackend();
    const attached = relay.attach(first);
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    relay.fromClient(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize }));
    first.answer(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }));
    relay.fromClient(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    relay.fromClient(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'lamp__set', arguments: {} } }),
    );
    relay.fromClient(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' }));
    first.end();
    await attached;
    relay.endUnanswered('home-agent serve (pid 42) stopped');
    const ends = toClient.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ends).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        result: {
          content: [
            {
              type: 'text',
              text: "home-agent serve (pid 42) stopped while this call ran: it may or may not have acted. Check the device's state before calling again.",
            },
          ],
          isError: true,
        },
      },
      { jsonrpc: '2.0', id: 8, error: { code: -32603, message: 'home-agent serve (pid 42) stopped: ask again' } },
    ]);
    const second = playedBackend();
    void relay.attach(second);
    const replayed = second.sent.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(replayed).toEqual([
      { jsonrpc: '2.0', id: 'home-agent-relay-1', method: 'initialize', params: initialize },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    // The replay's answer is the relay's own; the client hears only that the tools, prompts and resources may differ.
    second.answer(JSON.stringify({ jsonrpc: '2.0', id: 'home-agent-relay-1', result: {} }));
    expect(toClient.slice(-3).map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
    ]);
  });
});
