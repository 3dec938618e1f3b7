import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../helpers/compiled-entries.ts';

/** The packages a command's own code needs and its help must never load: the store, ports, the broker, MCP. */
const HEAVY = ['better-sqlite3', 'serialport', 'modbus-serial', 'mqtt', '@modelcontextprotocol/sdk'];

/** Every package a module pulls in through its static imports (what Node loads when it is imported). */
async function packagesLoadedBy(entry: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    metafile: true,
    outdir: 'unused',
    logLevel: 'silent',
  });
  // Walked from the entry along static imports only: a dynamic import() loads its module when it runs.
  const loaded = new Set<string>();
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of result.metafile.inputs[file]?.imports ?? []) {
      if (edge.kind !== 'import-statement') continue;
      if (edge.external) loaded.add(edge.path);
      else walk(edge.path);
    }
  };
  walk(entry);
  return [...loaded].sort();
}

describe('home-agent --help', () => {
  const helps = readdirSync(path.join(REPO_ROOT, 'host/front/cli/commands'))
    .filter((name) => name.endsWith('-help.ts'))
    .map((name) => `host/front/cli/commands/${name}`);

  it('has a help module for every command, which main loads for help', () => {
    expect(helps.map((file) => path.basename(file, '-help.ts')).sort()).toEqual(
      ['ask', 'bridge', 'devices', 'export', 'mcp', 'models', 'serve', 'sim', 'token', 'verify'].sort(),
    );
  });

  it('loads no store, serial port, broker client or MCP SDK, from main or any command’s help', async () => {
    for (const entry of ['host/front/cli/main.ts', ...helps]) {
      const loaded = await packagesLoadedBy(entry);
      expect(
        loaded.filter((name) => HEAVY.some((heavy) => name === heavy || name.startsWith(`${heavy}/`))),
        entry,
      ).toEqual([]);
    }
  });
});
