import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

/**
 * Every plugin, model provider and way in is declared once: its name appears in code only inside
 * folders that carry the name (e.g. `host/plugins/mcp/`, `host/front/mcp/`, `core/models/ollama/`,
 * `renderer/plugins/mcp/`) and in the one list of its kind (a file, or a folder of data-only lists like
 * `devices/ways-in/`). A file's own name does not exempt it.
 */
/** The model providers' lists: their facts (data only, what the window reads) and their adapters. */
const PROVIDER_LISTS = ['core/models/provider-facts.ts', 'core/models/provider-manifests.ts'];

const NAMES: readonly { name: string; word: RegExp; lists: readonly string[] }[] = [
  {
    name: 'mcp',
    word: /mcp/i,
    lists: ['host/contract/builtin/', 'host/plugins/builtin/', 'host/front/front-ends.ts', 'host/front/link-doors.ts'],
  },
  { name: 'ollama', word: /ollama/i, lists: PROVIDER_LISTS },
  { name: 'openai', word: /openai/i, lists: PROVIDER_LISTS },
  { name: 'anthropic', word: /anthropic/i, lists: PROVIDER_LISTS },
  { name: 'gemini', word: /gemini/i, lists: PROVIDER_LISTS },
  { name: 'demo', word: /\bdemo\b|'demo'/i, lists: PROVIDER_LISTS },
  { name: 'mqtt', word: /mqtt/i, lists: [] },
  { name: 'modbus', word: /modbus/i, lists: [] },
];

/**
 * Shipped history: migrations keep the table and column names databases were created with (an MCP
 * server's trust, the old `modbus` column of paired_devices), or databases from before no longer open.
 */
const SHIPPED_HISTORY = ['host/store/migrations.ts'];

/** The lists of ways in name every way in (devices/ways-in/, the seam's one place). */
const WAY_IN_LISTS = 'devices/ways-in/';

function sourceFiles(): string[] {
  return ['core', 'devices', 'host', 'electron', 'renderer'].flatMap((layer) =>
    readdirSync(path.join(REPO_ROOT, layer), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => `${layer}/${file.split(path.sep).join('/')}`),
  );
}

/** A line of code, not a comment: the check is about what the code depends on. */
function codeLines(text: string): string[] {
  return text.split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
}

function inFolderCarrying(file: string, name: string): boolean {
  return file
    .split('/')
    .slice(0, -1)
    .some((folder) => folder.toLowerCase().includes(name));
}

/** The files outside the folders carrying `name`, its list and shipped migrations, whose code names it. */
function filesNaming(entry: (typeof NAMES)[number], files: readonly string[]): string[] {
  return files.filter(
    (file) =>
      !inFolderCarrying(file, entry.name) &&
      !entry.lists.some((list) => (list.endsWith('/') ? file.startsWith(list) : file === list)) &&
      !file.startsWith(WAY_IN_LISTS) &&
      !SHIPPED_HISTORY.includes(file) &&
      codeLines(readFileSync(path.join(REPO_ROOT, file), 'utf8')).some((line) => entry.word.test(line)),
  );
}

describe('each plugin, provider and way in is named only in its folders and its one list', () => {
  const files = sourceFiles();
  for (const entry of NAMES)
    it(`finds ${entry.name} nowhere else`, () => {
      expect(filesNaming(entry, files)).toEqual([]);
    });

  it('would see a name outside its folder (the check can fail)', () => {
    expect(inFolderCarrying('host/plugins/mcp/mcp-config.ts', 'mcp')).toBe(true);
    expect(inFolderCarrying('host/store/mcp-trust-store.ts', 'mcp')).toBe(false);
    expect(
      codeLines("// mcp in a comment\nconst key = 'mcpApprovalWaitMs';").filter((l) => /mcp/i.test(l)),
    ).toHaveLength(1);
  });
});
