import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelContextStore } from '../../../host/store/model-context-store.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

describe('ModelContextStore', () => {
  it('keeps what was learned per base URL (trailing slash or not) and model, across reopening the file', () => {
    const db = openDatabase({ file: folder.file() });
    const store = new ModelContextStore({ db, now: () => 5 });
    expect(store.read({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' })).toBeUndefined();
    store.write({ baseUrl: 'http://127.0.0.1:8000/v1/', model: 'm' }, { windowTokens: 6000, bytesPerToken: 3.75 });
    store.write({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'other' }, { bytesPerToken: 4 });
    db.close();
    const again = new ModelContextStore({ db: folder.own(openDatabase({ file: folder.file() })) });
    expect(again.read({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' })).toEqual({
      windowTokens: 6000,
      bytesPerToken: 3.75,
    });
    expect(again.read({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'other' })).toEqual({ bytesPerToken: 4 });
    again.write({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'other' }, { windowTokens: 2048 });
    expect(again.read({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'other' })).toEqual({ windowTokens: 2048 });
  });

  it('forgets learned windows, all or those of a base URL and model, keeping the measured ratio, and says which', () => {
    const store = new ModelContextStore({ db: folder.own(openDatabase({ file: folder.file() })), now: () => 5 });
    const local = 'http://127.0.0.1:8000/v1';
    const lmStudio = 'http://127.0.0.1:1234/v1';
    store.write({ baseUrl: local, model: 'qwen' }, { windowTokens: 6000, bytesPerToken: 3.75 });
    store.write({ baseUrl: local, model: 'llama' }, { windowTokens: 4096 });
    store.write({ baseUrl: lmStudio, model: 'qwen' }, { windowTokens: 8192 });
    store.write({ baseUrl: lmStudio, model: 'ratio-only' }, { bytesPerToken: 4 });
    expect(store.forgetWindows({ baseUrl: `${local}/`, model: 'qwen' })).toEqual([
      { baseUrl: local, model: 'qwen', windowTokens: 6000 },
    ]);
    expect(store.read({ baseUrl: local, model: 'qwen' })).toEqual({ bytesPerToken: 3.75 });
    expect(store.forgetWindows({ model: 'nobody' })).toEqual([]);
    expect(store.forgetWindows({ model: 'qwen' })).toEqual([{ baseUrl: lmStudio, model: 'qwen', windowTokens: 8192 }]);
    store.write({ baseUrl: lmStudio, model: 'qwen' }, { windowTokens: 2048 });
    // No filter: every learned window, in order of base URL and model; a row with nothing left goes.
    expect(store.forgetWindows({})).toEqual([
      { baseUrl: lmStudio, model: 'qwen', windowTokens: 2048 },
      { baseUrl: local, model: 'llama', windowTokens: 4096 },
    ]);
    expect(store.read({ baseUrl: local, model: 'llama' })).toBeUndefined();
    expect(store.read({ baseUrl: lmStudio, model: 'ratio-only' })).toEqual({ bytesPerToken: 4 });
    expect(store.forgetWindows({})).toEqual([]);
  });
});
