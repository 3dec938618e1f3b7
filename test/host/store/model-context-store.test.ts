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
});
