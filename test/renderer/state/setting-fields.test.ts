import { describe, expect, it } from 'vitest';
import {
  formatSettingValue,
  parseSettingText,
  parseToolOrderText,
  settingErrorText,
  settingFields,
} from '../../../renderer/state/setting-fields.ts';

describe('parseToolOrderText', () => {
  it('reads one name per line, trimmed, blank lines dropped', () => {
    expect(parseToolOrderText('  system_list_tools \n\n<unlisted-tools>\r\nlamp__set\n  \n')).toEqual({
      ok: true,
      value: ['system_list_tools', '<unlisted-tools>', 'lamp__set'],
    });
  });

  it('reads an empty or blank textarea as unset, never as []', () => {
    expect(parseToolOrderText('')).toEqual({ ok: true, value: null });
    expect(parseToolOrderText(' \n \n')).toEqual({ ok: true, value: null });
  });

  it('leaves the rest-entry rule to the host (its message is the one shown)', () => {
    expect(parseToolOrderText('system_list_tools')).toEqual({ ok: true, value: ['system_list_tools'] });
  });
});

describe('parseSettingText', () => {
  it('reads whole numbers for integer fields and refuses anything else before sending', () => {
    expect(parseSettingText('integer', ' 12 ')).toEqual({ ok: true, value: 12 });
    expect(parseSettingText('integer', '1.5')).toMatchObject({ ok: false });
    expect(parseSettingText('integer', 'ten')).toMatchObject({ ok: false });
    expect(parseSettingText('integer', '')).toEqual({ ok: true, value: null });
  });

  it('trims one-line text but keeps a persona as written', () => {
    expect(parseSettingText('text', '  gpt-4o-mini ')).toEqual({ ok: true, value: 'gpt-4o-mini' });
    expect(parseSettingText('textarea', '  Be brief.\n')).toEqual({ ok: true, value: '  Be brief.\n' });
    expect(parseSettingText('textarea', '   ')).toEqual({ ok: true, value: null });
    expect(parseSettingText('select', '')).toEqual({ ok: true, value: null });
  });
});

describe('formatSettingValue', () => {
  it('shows a tool order one name per line and unset values as empty', () => {
    expect(formatSettingValue('lines', ['a', '<unlisted-tools>'])).toBe('a\n<unlisted-tools>');
    expect(formatSettingValue('integer', 8)).toBe('8');
    expect(formatSettingValue('text', undefined)).toBe('');
    expect(formatSettingValue('integer', 'eight')).toBe('');
  });
});

describe('settingErrorText', () => {
  it('drops the store’s prefix from the host’s message (recorded from a real host)', () => {
    const recorded =
      "Store invalid_value: setting toolOrder: ✖ toolOrder must contain the rest entry '<unlisted-tools>' exactly once (it has none): add it where unlisted tools should go.";
    expect(settingErrorText('toolOrder', recorded)).toBe(
      "toolOrder must contain the rest entry '<unlisted-tools>' exactly once (it has none): add it where unlisted tools should go.",
    );
    expect(settingErrorText('baseUrl', 'Store invalid_value: setting baseUrl: ✖ Invalid URL.')).toBe('Invalid URL.');
  });

  it('keeps a message of another shape whole', () => {
    expect(settingErrorText('model', "there is no setting named 'model'")).toBe("there is no setting named 'model'");
  });
});

describe('settingFields', () => {
  it('has a field for every key the host stores, and no API key field', () => {
    expect(settingFields.map((field) => field.key).sort()).toEqual([
      'apiKeyEnv',
      'baseUrl',
      'concurrencyCap',
      'maxSteps',
      'model',
      'persona',
      'provider',
      'toolOrder',
      'toolTimeoutMs',
    ]);
  });
});
