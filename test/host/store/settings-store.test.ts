import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../host/store/open-database.ts';
import type { InvalidRowReport } from '../../../host/store/parse-stored-row.ts';
import { SettingsStore } from '../../../host/store/settings-store.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

function open(onInvalidRow?: (report: InvalidRowReport) => void) {
  const db = folder.own(openDatabase({ file: folder.file() }));
  return { db, settings: new SettingsStore({ db, now: () => 1, ...(onInvalidRow ? { onInvalidRow } : {}) }) };
}

describe('SettingsStore', () => {
  it('reads a toolOrder that was never set as undefined, and leaves it out of getAll', () => {
    const { settings } = open();
    settings.set('model', 'llama3.2');
    expect(settings.get('toolOrder')).toBeUndefined();
    const all = settings.getAll();
    expect(all).toEqual({ model: 'llama3.2' });
    expect('toolOrder' in all).toBe(false);
  });

  it('keeps every key across a close and reopen', () => {
    const first = open();
    first.settings.set('provider', 'ollama');
    first.settings.set('model', 'qwen2.5:7b');
    first.settings.set('baseUrl', 'http://127.0.0.1:11434/v1');
    first.settings.set('apiKeyEnv', 'OPENAI_API_KEY');
    first.settings.set('persona', 'You keep the house warm.');
    first.settings.set('toolOrder', ['output_send__chat', '<unlisted-tools>', 'system__list_tools']);
    first.settings.set('maxSteps', 8);
    first.settings.set('toolTimeoutMs', 30_000);
    first.db.close();

    const { settings } = open();
    expect(settings.getAll()).toEqual({
      provider: 'ollama',
      model: 'qwen2.5:7b',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      persona: 'You keep the house warm.',
      toolOrder: ['output_send__chat', '<unlisted-tools>', 'system__list_tools'],
      maxSteps: 8,
      toolTimeoutMs: 30_000,
    });
    expect(settings.get('toolOrder')).toEqual(['output_send__chat', '<unlisted-tools>', 'system__list_tools']);
  });

  it('overwrites a value and forgets it on unset', () => {
    const { settings } = open();
    settings.set('toolOrder', ['<unlisted-tools>']);
    settings.set('toolOrder', ['a', '<unlisted-tools>']);
    expect(settings.get('toolOrder')).toEqual(['a', '<unlisted-tools>']);
    settings.unset('toolOrder');
    expect(settings.get('toolOrder')).toBeUndefined();
  });

  it.each([
    ['provider', 'openia'],
    ['model', ''],
    ['baseUrl', 'file:///etc/passwd'],
    ['apiKeyEnv', 'sk-live-123'],
    ['toolOrder', ['lamp__set']],
    ['toolOrder', ['<unlisted-tools>', 'a', 'a']],
    ['toolOrder', []],
    ['maxSteps', 0],
    ['maxSteps', 2.5],
    ['toolTimeoutMs', '30000'],
    ['bogus', 1],
  ])('refuses %s = %j and keeps nothing', (key, value) => {
    const { settings } = open();
    expect(() => settings.set(key as 'model', value as string)).toThrow(
      expect.objectContaining({ kind: 'invalid_value' }),
    );
    expect(settings.getAll()).toEqual({});
  });

  it('reports a stored value that fails its schema instead of returning it', () => {
    const reports: InvalidRowReport[] = [];
    const { db, settings } = open((report) => reports.push(report));
    db.prepare(
      "INSERT INTO settings (key, value, updated_at) VALUES ('toolOrder', '[\"no-rest-entry\"]', 1), ('maxSteps', '\"ten\"', 1), ('futureKey', '1', 1)",
    ).run();
    expect(settings.get('toolOrder')).toBeUndefined();
    expect(Object.keys(settings.getAll())).toEqual([]);
    expect(reports.map((report) => report.key)).toEqual(['toolOrder', 'maxSteps', 'toolOrder']);
    expect(reports[0]!.detail).toContain('<unlisted-tools>');
  });

  it('throws on a stored value that fails its schema when no handler is given', () => {
    const { db, settings } = open();
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('maxSteps', '-1', 1)").run();
    expect(() => settings.get('maxSteps')).toThrow(expect.objectContaining({ kind: 'invalid_row' }));
  });
});
