// The Electron binary cannot run here, so these tests drive the main-process and preload pieces
// with small stand-ins for the Electron objects they touch (the only stand-ins in the suite).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { secureWebPreferences } from '../../electron/secure-web-preferences.ts';
import { createIpcCallHandler, trustedUrlCheck } from '../../electron/ipc-call-handler.ts';
import { guardNavigation } from '../../electron/navigation-guard.ts';
import { createPreloadApi } from '../../electron/preload-api.ts';
import { IPC_CALL } from '../../electron/ipc-channels.ts';
import { createHost, type Host } from '../../host/app/create-host.ts';
import { ScriptedModel } from '../../core/models/scripted/scripted-model.ts';
import { API_METHODS } from '../../host/contract/api-contract.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function host(): Promise<Host> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-electron-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const created = await createHost({
    dataDir,
    transport: 'electron',
    model: new ScriptedModel({ replies: [] }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => created.dispose());
  return created;
}

describe('Electron window', () => {
  it('isolates and sandboxes the renderer without Node', () => {
    expect(secureWebPreferences('/app/preload.js')).toMatchObject({
      preload: '/app/preload.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('blocks navigation and new windows, sending https links to the system browser', () => {
    const listeners: Record<string, (event: { preventDefault(): void }, url: string) => void> = {};
    let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
    const opened: string[] = [];
    guardNavigation(
      {
        on: (name, listener) => (listeners[name] = listener),
        setWindowOpenHandler: (handler) => (openHandler = handler),
      },
      (url) => opened.push(url),
    );
    let prevented = false;
    listeners['will-navigate']?.({ preventDefault: () => (prevented = true) }, 'https://evil.example');
    expect(prevented).toBe(true);
    expect(openHandler?.({ url: 'https://docs.example/help' })).toEqual({ action: 'deny' });
    expect(openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.example/help']);
  });
});

describe('Electron IPC in main', () => {
  it('answers a valid call from our own frame', async () => {
    const created = await host();
    const handle = createIpcCallHandler({ handlers: () => created.handlers, isTrustedUrl: trustedUrlCheck(undefined) });
    await expect(
      handle({ senderFrame: { url: 'file:///app/index.html' } }, { method: 'app/info', input: {} }),
    ).resolves.toMatchObject({ ok: true, result: { transport: 'electron' } });
  });

  it('refuses calls from unknown frames and payloads that fail the contract', async () => {
    const created = await host();
    const handle = createIpcCallHandler({
      handlers: () => created.handlers,
      isTrustedUrl: trustedUrlCheck('http://localhost:5173'),
    });
    await expect(
      handle({ senderFrame: { url: 'https://evil.example/' } }, { method: 'app/info', input: {} }),
    ).rejects.toThrow(/unknown frame/);
    await expect(handle({ senderFrame: null }, { method: 'app/info', input: {} })).rejects.toThrow(/unknown frame/);
    const ours = { senderFrame: { url: 'http://localhost:5173/index.html' } };
    await expect(handle(ours, { method: 'fs/read', input: {} })).resolves.toMatchObject({
      ok: false,
      error: { status: 404, message: expect.stringMatching(/unknown API method/) },
    });
    await expect(handle(ours, { method: 'chat/send', input: { text: 7 } })).resolves.toMatchObject({
      ok: false,
      error: { status: 400, message: expect.stringMatching(/invalid input for chat\/send/) },
    });
    await expect(handle(ours, 'not an object')).rejects.toThrow(/without a method/);
  });
});

describe('Electron preload', () => {
  it('exposes exactly the contract methods and forwards them on one channel', async () => {
    const sent: { channel: string; payload: unknown }[] = [];
    const api = createPreloadApi({
      invoke: async (channel, payload) => {
        sent.push({ channel, payload });
        return { ok: true };
      },
      on: () => undefined,
      removeListener: () => undefined,
    });
    expect(Object.keys(api).sort()).toEqual(['call', 'onEvent', 'onNotice']);
    await api.call('app/info', {});
    expect(sent).toEqual([{ channel: IPC_CALL, payload: { method: 'app/info', input: {} } }]);
    await expect(api.call('shell/exec' as never, {} as never)).rejects.toThrow(/unknown API method/);
    expect(API_METHODS).toContain('chat/send');
  });
});
