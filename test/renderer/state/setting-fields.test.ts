import { describe, expect, it } from 'vitest';
import {
  fieldTexts,
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
  it('shows the host’s issues as one sentence, a leading name kept as it is', () => {
    expect(
      settingErrorText({
        message: 'Max steps: the step limit is a whole number from 1 to 100',
        issues: [{ path: '', message: 'the step limit is a whole number from 1 to 100' }],
      }),
    ).toBe('The step limit is a whole number from 1 to 100.');
    expect(
      settingErrorText({
        message: 'Tool order: …',
        issues: [{ path: '', message: "toolOrder names 'a' twice: each tool may be listed once" }],
      }),
    ).toBe("toolOrder names 'a' twice: each tool may be listed once.");
  });

  it('falls back to the message when the host gave no issues', () => {
    expect(settingErrorText({ message: 'the host is stopping.' })).toBe('The host is stopping.');
  });
});

describe('settingFields', () => {
  it('has a field for every key the host stores, and no API key field', () => {
    expect(settingFields.map((field) => field.key).sort()).toEqual([
      'apiKeyEnv',
      'baseUrl',
      'concurrencyCap',
      'contextTokens',
      'deviceEventsPerSecond',
      'earlyToolStart',
      'maxSteps',
      'maxToolArgumentBytes',
      'mcpApprovalWaitMs',
      'mcpMaxResultBytes',
      'mcpStartTimeoutMs',
      'model',
      'mqttMaxMessageBytes',
      'mqttPasswordEnv',
      'mqttTopicPrefix',
      'mqttUrl',
      'ollamaNumCtx',
      'persona',
      'promptDevices',
      'provider',
      'replyMaxBytes',
      'replyTimeoutMs',
      'sequenceMaxCalls',
      'sequenceMaxResultBytes',
      'sequenceWallTimeMs',
      'toolOrder',
      'toolTimeoutMs',
    ]);
  });
});

describe('fieldTexts', () => {
  const field = (key: string) => settingFields.find((candidate) => candidate.key === key)!;

  it('shows the base URL, model and key variable of the provider chosen, LM Studio’s port among them', () => {
    // The addresses of docs/providers.md's server table.
    expect(fieldTexts(field('baseUrl'), 'openai').placeholder).toContain('LM Studio: http://127.0.0.1:1234/v1');
    expect(fieldTexts(field('baseUrl'), 'ollama').placeholder).toBe('http://127.0.0.1:11434');
    expect(fieldTexts(field('baseUrl'), 'anthropic').placeholder).toBe('https://api.anthropic.com');
    expect(fieldTexts(field('apiKeyEnv'), 'gemini').placeholder).toBe('GEMINI_API_KEY');
    expect(fieldTexts(field('apiKeyEnv'), 'ollama').placeholder).toBe('none: Ollama needs no key');
  });

  it('names the section of docs/providers.md for the provider chosen, and the general words without one', () => {
    expect(fieldTexts(field('provider'), 'ollama').hint).toContain('docs/providers.md');
    expect(fieldTexts(field('provider'), '').hint).toBe('Which kind of model server to use; demo needs none.');
    expect(fieldTexts(field('baseUrl'), 'demo').placeholder).toBe('the provider’s usual address');
  });
});
