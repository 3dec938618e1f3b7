import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_KEYS, settingsTable, settingValue } from '../../../host/contract/settings-table.ts';

/** A number as help writes it: 30000 → "30,000". */
const n = (value: number): string => value.toLocaleString('en');

/**
 * Each setting's value while it is unset, written here by hand, and what its help says after
 * "empty:" (none: its help states no default). A row with no value of its own gives `undefined` and
 * says, in words, what applies instead.
 */
const expected: Record<string, { value: unknown; says?: string }> = {
  provider: { value: undefined },
  model: { value: undefined },
  baseUrl: { value: undefined, says: 'the provider’s usual address' },
  apiKeyEnv: { value: undefined },
  persona: {
    value:
      'You are Home Agent, the assistant of this home. You control its devices through the tools you are given. Be brief and concrete; say what you did and what you saw.',
  },
  toolOrder: { value: undefined, says: 'plain alphabetical order' },
  maxSteps: { value: 8 },
  toolTimeoutMs: { value: 30000, says: n(30000) },
  concurrencyCap: { value: undefined, says: 'every call of a parallel reply runs at once' },
  replyTimeoutMs: { value: 300000, says: `${n(300000)} (5 minutes)` },
  replyMaxBytes: { value: 1048576, says: `${n(1048576)} (1 MiB)` },
  sequenceMaxCalls: { value: 2000, says: n(2000) },
  sequenceMaxResultBytes: { value: 262144, says: `${n(262144)} (256 KiB)` },
  sequenceWallTimeMs: { value: 120000, says: `${n(120000)} (2 minutes)` },
  contextTokens: { value: undefined, says: 'as the server or its maker says, or as learned from a refusal' },
  ollamaNumCtx: { value: 16384, says: n(16384) },
  mcpApprovalWaitMs: { value: 60000, says: `${n(60000)} (1 minute)` },
  maxToolArgumentBytes: { value: 65536, says: `${n(65536)} (64 KiB)` },
  earlyToolStart: { value: 'on', says: 'on' },
  deviceEventsPerSecond: { value: 20, says: n(20) },
  promptDevices: { value: 'all', says: 'all' },
  mcpMaxResultBytes: { value: 262144, says: `${n(262144)} (256 KiB)` },
  mcpStartTimeoutMs: { value: 60000, says: `${n(60000)} (1 minute)` },
  mqttUrl: { value: undefined, says: 'none' },
  mqttPasswordEnv: { value: undefined },
  mqttTopicPrefix: { value: 'home-agent', says: 'home-agent' },
  mqttMaxMessageBytes: { value: 262144, says: `${n(262144)} (256 KiB)` },
};

type Row = { default?: unknown; defaultFrom?: unknown; help?: string };
const rowOf = (key: string): Row => (settingsTable as Record<string, Row>)[key]!;

/** What a help text says after "empty:" (either case), up to the sentence's end. */
function saysWhenEmpty(help: string | undefined): string | undefined {
  return help === undefined ? undefined : /\b[Ee]mpty: (.*?)\.?$/.exec(help)?.[1];
}

describe('every setting’s default, in its row of the settings table', () => {
  it('is declared by every row, its own rows and those its plugins and ways in spread in', () => {
    expect([...SETTING_KEYS].sort()).toEqual(Object.keys(expected).sort());
    for (const key of SETTING_KEYS) {
      const row = rowOf(key);
      expect(Object.hasOwn(row, 'default'), `${key} declares its default`).toBe(true);
      if (row.default === undefined) {
        // No value of its own: the row says in words what applies instead.
        expect(typeof row.defaultFrom === 'string' && row.defaultFrom.length > 0, `${key}'s defaultFrom`).toBe(true);
      } else {
        expect(row.defaultFrom, `${key} has a value of its own`).toBeUndefined();
      }
    }
  });

  it('is the value settingValue gives while the setting is unset, as written here by hand', () => {
    for (const key of SETTING_KEYS) expect(settingValue({}, key), key).toEqual(expected[key]!.value);
  });

  it('is what each help text that states a default says, and only those state one', () => {
    for (const key of SETTING_KEYS) {
      const row = rowOf(key);
      expect(saysWhenEmpty(row.help), key).toBe(expected[key]!.says);
      // A row with no value of its own says after "empty:" what its defaultFrom says.
      if (row.default === undefined && expected[key]!.says !== undefined)
        expect(row.defaultFrom, key).toBe(expected[key]!.says);
    }
  });
});

const ROOT = join(import.meta.dirname, '../../..');
const SOURCE_FOLDERS = ['core', 'devices', 'host', 'electron', 'renderer', 'scripts', 'bin'];
const THE_READER = 'host/contract/settings-table.ts';

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|tsx|mts|mjs)$/.test(path))
    .map((path) => relative(ROOT, join(ROOT, folder, path)));
}

/**
 * `.default` read off something that names a setting or a row: `settingsTable.x.default`,
 * `settingsTable[key].default`, `mqttSettings.mqttTopicPrefix.default`, `spec.default`, `row.default`.
 */
const ROW_DEFAULT_READ = /\b\w*(?:[Ss]etting|[Ss]pec|[Rr]ow)\w*(?:\??\.\w+|\[[^\]]*\])*\??\.default\b(?!\s*\()/;

/** A setting read with a fallback written beside it (`settings().x ?? 30_000`) instead of `settingValue`. */
const SETTING_FALLBACK = /\b[sS]ettings(?:\(\))?\??\.\w+\s*\?\?/;

describe('settingValue', () => {
  it('is the only reader of a row’s default: no other source file reads `.default` off a setting', () => {
    const readers: string[] = [];
    for (const file of SOURCE_FOLDERS.flatMap(sourceFiles)) {
      if (file === THE_READER) continue;
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (!/^\s*(\/\/|\*|\/\*)/.test(line) && ROW_DEFAULT_READ.test(line)) readers.push(`${file}:${index + 1}`);
        });
    }
    expect(readers).toEqual([]);
  });

  it('is how the layers that can see it (host, electron, renderer) read a setting with its default: none falls back by hand', () => {
    const aroundIt: string[] = [];
    for (const file of ['host', 'electron', 'renderer'].flatMap(sourceFiles)) {
      if (file === THE_READER) continue;
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (SETTING_FALLBACK.test(line)) aroundIt.push(`${file}:${index + 1}`);
        });
    }
    expect(aroundIt).toEqual([]);
  });

  it('is seen reading one: the check finds a row default read around it', () => {
    expect(SETTING_FALLBACK.test('maxResultBytes: () => settings().mcpMaxResultBytes ?? 262_144,')).toBe(true);
    expect(SETTING_FALLBACK.test('const wait = options.settings?.mcpApprovalWaitMs ?? WAIT;')).toBe(true);
    expect(ROW_DEFAULT_READ.test('settings().x ?? settingsTable.mcpMaxResultBytes.default')).toBe(true);
    expect(ROW_DEFAULT_READ.test('given[key] ?? settingsTable[key].default;')).toBe(true);
    expect(ROW_DEFAULT_READ.test('context?.topicPrefix ?? mqttSettings.mqttTopicPrefix.default')).toBe(true);
    expect(ROW_DEFAULT_READ.test("payloadValue.default('online')")).toBe(false);
  });
});
