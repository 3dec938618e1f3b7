import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PluginStateStore } from '../../../host/store/plugin-state-store.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

describe('PluginStateStore', () => {
  it('treats a plugin never toggled as enabled', () => {
    const plugins = new PluginStateStore({ db: folder.own(openDatabase({ file: folder.file() })) });
    expect(plugins.isEnabled('sequences')).toBe(true);
    expect(plugins.listDisabled()).toEqual([]);
  });

  it('keeps disabled and re-enabled plugins across a close and reopen', () => {
    const db = openDatabase({ file: folder.file() });
    const first = new PluginStateStore({ db });
    first.setEnabled('sequences', false);
    first.setEnabled('devices', false);
    first.setEnabled('devices', true);
    first.setEnabled('channels', true);
    db.close();

    const plugins = new PluginStateStore({ db: folder.own(openDatabase({ file: folder.file() })) });
    expect(plugins.isEnabled('sequences')).toBe(false);
    expect(plugins.isEnabled('devices')).toBe(true);
    expect(plugins.isEnabled('channels')).toBe(true);
    expect(plugins.listDisabled()).toEqual(['sequences']);
  });
});
