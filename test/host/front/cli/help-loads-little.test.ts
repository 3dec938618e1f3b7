import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../helpers/compiled-entries.ts';
import { COMMANDS } from '../../../../host/front/front-ends.ts';

/** The packages a command's own code needs and its help must never load: the store, ports, the broker, MCP. */
const HEAVY = ['better-sqlite3', 'serialport', 'modbus-serial', 'mqtt', '@modelcontextprotocol/sdk'];

/** The entry of the `home-agent` command: the front ends' composition root. */
const ENTRY = 'host/front/front-ends.ts';

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
  // The help modules of every front end (the CLI's, the web app's, the MCP server's and what they add to each other).
  const helps = readdirSync(path.join(REPO_ROOT, 'host/front'), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('-help.ts'))
    .map((file) => `host/front/${file}`);

  it('has a help module for every command, which the entry loads for help', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(
      [
        'ask',
        'bridge',
        'devices',
        'export',
        'mcp',
        'models',
        'pin',
        'plugins',
        'serve',
        'sim',
        'token',
        'verify',
      ].sort(),
    );
    for (const name of Object.keys(COMMANDS))
      expect(
        helps.some((file) => path.basename(file) === `${name}-help.ts`),
        name,
      ).toBe(true);
  });

  it('loads no store, serial port, broker client or MCP SDK, from the entry or any command’s help', async () => {
    for (const entry of [ENTRY, ...helps]) {
      const loaded = await packagesLoadedBy(entry);
      expect(
        loaded.filter((name) => HEAVY.some((heavy) => name === heavy || name.startsWith(`${heavy}/`))),
        entry,
      ).toEqual([]);
    }
  });
});

describe('home-agent serve and the window', () => {
  it('load the MCP SDK only when they serve MCP, an MCP server is configured or a home-agent mcp comes', async () => {
    // serve's command with the host it creates, its MCP add-on until --mcp is read, and the doors of
    // the home's socket (the window's main process composes the same doors and host).
    for (const entry of [
      'host/front/web/serve-command.ts',
      'host/front/mcp/mcp-serve-add-on.ts',
      'host/front/link-doors.ts',
      'host/app/create-host.ts',
    ]) {
      const loaded = await packagesLoadedBy(entry);
      expect(
        loaded.filter((name) => name.startsWith('@modelcontextprotocol/sdk')),
        entry,
      ).toEqual([]);
    }
  });
});
