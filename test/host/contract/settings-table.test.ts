import { describe, expect, it } from 'vitest';
import { parseArgs } from 'node:util';
import { checkSetting, SETTING_KEYS, settingsTable, settingValue } from '../../../host/contract/settings-table.ts';
import { commonFlagOptions, readCommonFlags } from '../../../host/front/command-line/common-flags.ts';
import { readSettingEnvironment } from '../../../host/config/read-setting-values.ts';
import { settingFields } from '../../../renderer/state/setting-fields.ts';
import { mergeSettings } from '../../../host/app/merge-settings.ts';
import { UsageError } from '../../../host/config/usage-error.ts';

/** One valid value per setting, as a person would type it, and what it means (hand-written). */
const typed: Record<string, { text: string; value: unknown }> = {
  provider: { text: 'ollama', value: 'ollama' },
  model: { text: 'llama3.1', value: 'llama3.1' },
  baseUrl: { text: 'http://127.0.0.1:11434', value: 'http://127.0.0.1:11434' },
  apiKeyEnv: { text: 'MY_KEY', value: 'MY_KEY' },
  persona: { text: 'Be brief.', value: 'Be brief.' },
  toolOrder: { text: '["lamp__set","<unlisted-tools>"]', value: ['lamp__set', '<unlisted-tools>'] },
  maxSteps: { text: '4', value: 4 },
  toolTimeoutMs: { text: '1500', value: 1500 },
  concurrencyCap: { text: '2', value: 2 },
  replyTimeoutMs: { text: '60000', value: 60000 },
  replyMaxBytes: { text: '2048', value: 2048 },
  sequenceMaxCalls: { text: '50', value: 50 },
  sequenceMaxResultBytes: { text: '4096', value: 4096 },
  sequenceWallTimeMs: { text: '5000', value: 5000 },
  contextTokens: { text: '8192', value: 8192 },
  ollamaNumCtx: { text: '32768', value: 32768 },
  mcpApprovalWaitMs: { text: '30000', value: 30000 },
  maxToolArgumentBytes: { text: '4096', value: 4096 },
  earlyToolStart: { text: 'off', value: 'off' },
  deviceEventsPerSecond: { text: '5', value: 5 },
  promptDevices: { text: 'rooms-first', value: 'rooms-first' },
  mcpMaxResultBytes: { text: '65536', value: 65536 },
  mcpStartTimeoutMs: { text: '120000', value: 120000 },
  mqttUrl: { text: 'mqtt://home-agent@192.168.1.10:1883', value: 'mqtt://home-agent@192.168.1.10:1883' },
  mqttPasswordEnv: { text: 'MQTT_PASSWORD', value: 'MQTT_PASSWORD' },
  mqttTopicPrefix: { text: 'house/agent', value: 'house/agent' },
  mqttMaxMessageBytes: { text: '4096', value: 4096 },
};

describe('the settings table', () => {
  it('gives every setting its own flag and environment variable', () => {
    const flags = SETTING_KEYS.map((key) => settingsTable[key].flag);
    const variables = SETTING_KEYS.map((key) => settingsTable[key].env);
    expect(new Set(flags).size).toBe(SETTING_KEYS.length);
    expect(new Set(variables).size).toBe(SETTING_KEYS.length);
    expect(Object.keys(typed).sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('reads a setting’s default from its entry while it is unset, and the value set when there is one', () => {
    // An MCP client's call waits a minute for the person unless told otherwise (issue 17).
    expect(settingValue({}, 'mcpApprovalWaitMs')).toBe(60_000);
    expect(settingValue({ mcpApprovalWaitMs: 5000 }, 'mcpApprovalWaitMs')).toBe(5000);
  });

  it('reads every setting from its command-line flag', () => {
    const argv = SETTING_KEYS.flatMap((key) => [`--${settingsTable[key].flag}`, typed[key]!.text]);
    const { values } = parseArgs({ args: argv, options: commonFlagOptions, strict: true });
    expect(readCommonFlags(values).settings).toEqual(
      Object.fromEntries(SETTING_KEYS.map((key) => [key, typed[key]!.value])),
    );
  });

  it('reads every setting from its environment variable, naming the variable when a value is wrong', () => {
    const env = Object.fromEntries(SETTING_KEYS.map((key) => [settingsTable[key].env, typed[key]!.text]));
    expect(readSettingEnvironment(env)).toEqual(
      Object.fromEntries(SETTING_KEYS.map((key) => [key, typed[key]!.value])),
    );
    expect(() => readSettingEnvironment({ HOME_AGENT_MAX_STEPS: 'many' })).toThrow(
      new UsageError("HOME_AGENT_MAX_STEPS: the step limit is a whole number from 1 to 100 (got 'many')"),
    );
  });

  it('gives the form a field for every setting, in the table’s order, and never one for an API key', () => {
    expect(settingFields.map((field) => field.key)).toEqual(SETTING_KEYS);
    expect(settingFields.some((field) => /key$/i.test(field.key))).toBe(false);
    // The model is chosen at each turn's start (host/models/model-selection.ts); only the device event
    // rate, the MCP servers' start timeout and the broker's settings, given to what they configure
    // when it starts, wait for a restart.
    expect(settingFields.filter((field) => field.restartRequired).map((field) => field.key)).toEqual([
      'deviceEventsPerSecond',
      'mcpStartTimeoutMs',
      'mqttUrl',
      'mqttPasswordEnv',
      'mqttTopicPrefix',
      'mqttMaxMessageBytes',
    ]);
  });

  it('refuses to keep a broker URL with a password in it, saying why, and takes one without', () => {
    expect(checkSetting('mqttUrl', 'mqtt://home-agent:s3cret@192.168.1.10:1883')).toEqual({
      ok: false,
      issues: [
        {
          path: '',
          message:
            'the broker URL holds a password: a URL is kept in shell history, process lists, logs and settings, so the password never goes in it. Remove it (mqtt://USER@HOST:PORT) and name the environment variable that holds it with --mqtt-password-env VAR',
        },
      ],
    });
    expect(checkSetting('mqttUrl', 'http://broker:1883')).toMatchObject({
      ok: false,
      issues: [{ message: 'a broker URL starts with mqtt:// or mqtts://, got http://' }],
    });
    // What connecting would refuse is refused when it is kept: the one reading of a broker URL.
    expect(checkSetting('mqttUrl', 'mqtt://broker.local/topic')).toMatchObject({
      ok: false,
      issues: [{ message: 'the broker URL takes no path, query or fragment: write mqtt://USER@HOST:PORT' }],
    });
    expect(checkSetting('mqttUrl', 'mqtts://pi@broker.local')).toEqual({ ok: true, value: 'mqtts://pi@broker.local' });
    expect(settingValue({}, 'mqttTopicPrefix')).toBe('home-agent');
    expect(settingValue({}, 'mqttMaxMessageBytes')).toBe(262_144);
  });

  it('merges flags over stored values key by key, leaving an unset toolOrder absent (seed 000)', () => {
    expect(mergeSettings({ maxSteps: 3, persona: 'stored' }, { maxSteps: 5 })).toEqual({
      maxSteps: 5,
      persona: 'stored',
    });
    expect('toolOrder' in mergeSettings({}, {})).toBe(false);
  });
});
