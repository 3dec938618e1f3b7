import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import NodeWebSocket from 'ws';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { startWebServer } from '../../../host/front/web/web-server.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { createWebApiClient } from '../../../renderer/api/web-api-client.ts';
import { createElectronApiClient } from '../../../renderer/api/electron-api-client.ts';
import { ApiCallError, type ApiClient } from '../../../renderer/api/api-client.ts';
import { createIpcCallHandler } from '../../../electron/ipc-call-handler.ts';
import { createPreloadApi } from '../../../electron/preload-api.ts';

const TOKEN = 'test-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function host(): Promise<Host> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-settings-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const created = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: [{ text: 'ok' }] }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => created.dispose());
  return created;
}

/** The renderer's web client against a real `serve` transport. */
async function webClient(created: Host): Promise<ApiClient> {
  const server = await startWebServer({
    handlers: created.handlers,
    bus: created.events,
    staticDir: tmpdir(),
    port: 0,
    token: TOKEN,
  });
  cleanups.push(() => server.close());
  const client = createWebApiClient({
    baseUrl: server.url,
    token: TOKEN,
    WebSocketImpl: NodeWebSocket as unknown as new (url: string) => WebSocket,
  });
  cleanups.push(() => client.dispose());
  return client;
}

/** The renderer's Electron client through the real preload object and main's handler (Electron's IPC stood in by a function call). */
function electronClient(created: Host): ApiClient {
  const handle = createIpcCallHandler({ handlers: () => created.handlers, isTrustedUrl: () => true });
  const bridge = createPreloadApi({
    invoke: (_channel, payload) => handle({ senderFrame: { url: 'file:///app/index.html' } }, payload),
    on: () => undefined,
    removeListener: () => undefined,
  });
  return createElectronApiClient(bridge);
}

async function refusal(client: ApiClient, key: string, value: unknown): Promise<ApiCallError> {
  const error = await client.call('settings/set', { key: key as never, value }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiCallError);
  return error as ApiCallError;
}

for (const transport of ['web', 'electron'] as const) {
  describe(`settings/set over the ${transport} transport`, () => {
    const clientOf = (created: Host) => (transport === 'web' ? webClient(created) : electronClient(created));

    it('names the refused field and says what is wrong in words a person reads', async () => {
      const client = await clientOf(await host());
      const error = await refusal(client, 'maxSteps', 0);
      expect(error.status).toBe(400);
      expect(error.field).toBe('maxSteps');
      expect(error.issues).toEqual([{ path: '', message: 'the step limit is a whole number from 1 to 100' }]);
      const url = await refusal(client, 'baseUrl', 'ftp://example.org');
      expect(url.issues?.[0]?.message).toBe(
        'a web address starting with http:// or https://, e.g. http://127.0.0.1:11434/v1',
      );
    });

    it('stores a valid value and answers with every stored setting', async () => {
      const client = await clientOf(await host());
      const { settings } = await client.call('settings/set', { key: 'maxSteps', value: 12 });
      expect(settings).toEqual({ maxSteps: 12 });
      expect((await client.call('settings/get', {})).settings).toEqual({ maxSteps: 12 });
    });
  });
}
