import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { ModelContextStore } from '../../../host/store/model-context-store.ts';
import { createElectronApiClient } from '../../../renderer/api/electron-api-client.ts';
import { createAppStore } from '../../../renderer/state/create-app-store.ts';
import { createIpcCallHandler } from '../../../electron/ipc-call-handler.ts';
import { createPreloadApi } from '../../../electron/preload-api.ts';
import { MemoryStorage } from '../../renderer/helpers/memory-storage.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SERVER = 'http://127.0.0.1:8080/v1';

/** A host on a data folder that learned a window of 1 token for qwen (a poisoned folder) and 6,000 for llama. */
async function hostWithLearnedWindows(): Promise<{ created: Host; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-forget-windows-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  const store = new ModelContextStore({ db });
  store.write({ baseUrl: SERVER, model: 'qwen' }, { windowTokens: 1, bytesPerToken: 3 });
  store.write({ baseUrl: SERVER, model: 'llama' }, { windowTokens: 6000 });
  db.close();
  const created = await createHost({
    dataDir,
    transport: 'electron',
    model: new ScriptedModel({ replies: [{ text: 'ok' }] }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => created.dispose());
  return { created, dataDir };
}

describe('Forget learned windows in the Settings tab', () => {
  it('forgets every learned window in the data folder through the API, and says so in the form', async () => {
    const { created, dataDir } = await hostWithLearnedWindows();
    const handle = createIpcCallHandler({ handlers: () => created.handlers, isTrustedUrl: () => true });
    const api = createElectronApiClient(
      createPreloadApi({
        invoke: (_channel, payload) => handle({ senderFrame: { url: 'file:///app/index.html' } }, payload),
        on: () => undefined,
        removeListener: () => undefined,
      }),
    );
    const store = createAppStore({ api, storage: { local: new MemoryStorage(), session: new MemoryStorage() } });
    await store.getState().forgetLearnedWindows();
    expect(store.getState().windowsForgetting).toEqual({
      phase: 'done',
      ok: true,
      message:
        "Forgot 2 learned windows; the next turn finds each model's window again (the server, its documentation, or a refusal).",
    });
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    cleanups.push(() => {
      db.close();
    });
    const after = new ModelContextStore({ db });
    expect(after.read({ baseUrl: SERVER, model: 'qwen' })).toEqual({ bytesPerToken: 3 });
    expect(after.read({ baseUrl: SERVER, model: 'llama' })).toBeUndefined();
    await store.getState().forgetLearnedWindows();
    expect(store.getState().windowsForgetting).toMatchObject({ message: 'No learned window to forget.' });
    // The API also takes a base URL and a model, and refuses what is not one.
    await expect(api.call('models/forget-windows', { model: '' })).rejects.toMatchObject({ status: 400 });
  });
});
