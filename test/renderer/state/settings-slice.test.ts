import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

/**
 * A host keeping settings in a map; like the real one it refuses a tool order without the rest
 * entry (HTTP 400, with the field and its issue, as recorded from a real host).
 */
async function startSettingsHost(
  initial: Record<string, unknown> = {},
): Promise<{ host: LoopbackHost; stored: Map<string, unknown> }> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  const stored = new Map(Object.entries(initial));
  const all = () => ({ settings: Object.fromEntries(stored) });
  host.routes['settings/get'] = () => ({ result: all() });
  host.routes['settings/set'] = (body) => {
    const { key, value } = body as { key: string; value?: unknown };
    if (key === 'toolOrder' && Array.isArray(value) && !value.includes('<unlisted-tools>')) {
      const issue =
        "toolOrder must contain the rest entry '<unlisted-tools>' exactly once (it has none): add it where unlisted tools should go";
      return {
        status: 400,
        message: `Tool order: ${issue}`,
        field: 'toolOrder',
        issues: [{ path: '', message: issue }],
      };
    }
    if (value === undefined || value === null) stored.delete(key);
    else stored.set(key, value);
    return { result: all() };
  };
  return { host, stored };
}

function open(host: LoopbackHost) {
  const renderer = createLoopbackStore({ host });
  disposers.push(() => renderer.dispose());
  return renderer.store;
}

describe('settings slice', () => {
  it('reads the stored settings', async () => {
    const { host } = await startSettingsHost({ model: 'llama3.1', toolOrder: ['lamp__set', '<unlisted-tools>'] });
    const store = open(host);
    await store.getState().refreshSettings();
    expect(store.getState().settings).toEqual({ model: 'llama3.1', toolOrder: ['lamp__set', '<unlisted-tools>'] });
  });

  it('saves only the edited fields, as the values their text stands for', async () => {
    const { host, stored } = await startSettingsHost({ model: 'old' });
    const store = open(host);
    await store.getState().refreshSettings();
    store.getState().editSetting('toolOrder', 'system_list_tools\n<unlisted-tools>\n');
    store.getState().editSetting('maxSteps', '12');
    store.getState().editSetting('model', '');
    const result = await store.getState().saveSettings();
    expect(result).toEqual({ saved: ['model', 'toolOrder', 'maxSteps'], failed: [] });
    expect(host.requests.get('settings/set')).toEqual([
      { key: 'model', value: null },
      { key: 'toolOrder', value: ['system_list_tools', '<unlisted-tools>'] },
      { key: 'maxSteps', value: 12 },
    ]);
    expect(Object.fromEntries(stored)).toEqual({ toolOrder: ['system_list_tools', '<unlisted-tools>'], maxSteps: 12 });
    expect(store.getState().settingDrafts).toEqual({});
    expect(store.getState().settings).toEqual({ toolOrder: ['system_list_tools', '<unlisted-tools>'], maxSteps: 12 });
  });

  it('keeps a refused field’s draft with the host’s reason beside it, and saves the rest', async () => {
    const { host, stored } = await startSettingsHost();
    const store = open(host);
    store.getState().editSetting('persona', 'Be brief.');
    store.getState().editSetting('toolOrder', 'system_list_tools');
    const result = await store.getState().saveSettings();
    expect(result).toEqual({ saved: ['persona'], failed: ['toolOrder'] });
    expect(store.getState().settingErrors).toEqual({
      toolOrder:
        "toolOrder must contain the rest entry '<unlisted-tools>' exactly once (it has none): add it where unlisted tools should go.",
    });
    expect(store.getState().settingDrafts).toEqual({ toolOrder: 'system_list_tools' });
    expect(stored.has('toolOrder')).toBe(false);
  });

  it('refuses a number that is not whole without asking the host', async () => {
    const { host } = await startSettingsHost();
    const store = open(host);
    store.getState().editSetting('toolTimeoutMs', '1.5s');
    expect(await store.getState().saveSettings()).toEqual({ saved: [], failed: ['toolTimeoutMs'] });
    expect(host.requests.get('settings/set')).toBeUndefined();
    expect(store.getState().settingErrors.toolTimeoutMs).toMatch(/whole number/);
  });

  it('clears a field’s error once it is saved', async () => {
    const { host } = await startSettingsHost();
    const store = open(host);
    store.getState().editSetting('toolOrder', 'lamp__set');
    await store.getState().saveSettings();
    store.getState().editSetting('toolOrder', 'lamp__set\n<unlisted-tools>');
    expect(await store.getState().saveSettings()).toEqual({ saved: ['toolOrder'], failed: [] });
    expect(store.getState().settingErrors).toEqual({});
  });

  it('shows a save’s answer over a read that was asked before the save and answers after it', async () => {
    const { host } = await startSettingsHost({ model: 'old' });
    const store = open(host);
    // A page's first answer tells its client the host takes its token; until then its calls wait for that one.
    await store.getState().refreshSettings();
    let answerRead: () => void = () => undefined;
    let readAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (readAsked = resolve));
    host.routes['settings/get'] = () =>
      new Promise((resolve) => {
        // The read sees the settings as they were when it was asked, and answers only when the test says.
        answerRead = () => resolve({ result: { settings: { model: 'old' } } });
        readAsked();
      });
    const read = store.getState().refreshSettings();
    await asked;
    store.getState().editSetting('model', 'new');
    await store.getState().saveSettings();
    answerRead();
    await read;
    expect(store.getState().settings).toEqual({ model: 'new' });
  });

  it('discards drafts and errors on request, showing the stored values again', async () => {
    const { host } = await startSettingsHost();
    const store = open(host);
    store.getState().editSetting('toolOrder', 'lamp__set');
    await store.getState().saveSettings();
    store.getState().discardSettingDrafts();
    expect([store.getState().settingDrafts, store.getState().settingErrors]).toEqual([{}, {}]);
  });
});

describe('settings slice: the model server and what the form says', () => {
  it('tests the address in the form: an emptied Base URL is sent as not set, not left out for the saved one', async () => {
    const { host } = await startSettingsHost({ provider: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', model: 'm' });
    host.routes['models/test'] = () => ({ result: { ok: false, message: 'tried' } });
    const store = open(host);
    await store.getState().refreshSettings();
    store.getState().editSetting('baseUrl', '');
    await store.getState().testConnection();
    expect(host.requests.get('models/test')).toEqual([{ provider: 'openai', baseUrl: null, model: 'm' }]);
  });

  it('clears the previous provider’s status lines (its models, its connection test) when the provider changes', async () => {
    const { host } = await startSettingsHost({ provider: 'openai', model: 'm' });
    host.routes['models/list'] = () => ({
      result: { ok: false, message: 'No model server at http://127.0.0.1:1/v1.' },
    });
    host.routes['models/test'] = () => ({
      result: { ok: false, message: 'No model server at http://127.0.0.1:1/v1.' },
    });
    const store = open(host);
    await store.getState().refreshSettings();
    await store.getState().loadModelChoices();
    await store.getState().testConnection();
    expect(store.getState().modelChoices.status).toBe('failed');
    store.getState().editSetting('provider', 'ollama');
    expect(store.getState().modelChoices).toEqual({ status: 'idle', models: [] });
    expect(store.getState().connectionTest).toBeNull();
  });

  it('keeps the model list when only the model is chosen from it', async () => {
    const { host } = await startSettingsHost({ provider: 'openai' });
    host.routes['models/list'] = () => ({ result: { ok: true, models: [{ id: 'small' }, { id: 'big' }] } });
    const store = open(host);
    await store.getState().refreshSettings();
    await store.getState().loadModelChoices();
    store.getState().editSetting('model', 'big');
    expect(store.getState().modelChoices).toEqual({ status: 'loaded', models: [{ id: 'small' }, { id: 'big' }] });
  });

  it('counts a field typed back to its saved value as unchanged: Save then says nothing was saved', async () => {
    const { host } = await startSettingsHost({ maxSteps: 8, model: 'llama3.1' });
    const store = open(host);
    await store.getState().refreshSettings();
    store.getState().editSetting('maxSteps', '9');
    store.getState().editSetting('maxSteps', '8');
    store.getState().editSetting('model', 'llama3.1');
    store.getState().editSetting('persona', '');
    expect(store.getState().settingDrafts).toEqual({});
    expect(await store.getState().saveSettings()).toEqual({ saved: [], failed: [] });
    expect(host.requests.get('settings/set')).toBeUndefined();
  });
});
