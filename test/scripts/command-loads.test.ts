import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBinListingLoads } from '../helpers/run-bin-listing-loads.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-command-loads-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The packages a module URL belongs to (`mqtt`, `@serialport/stream`), or undefined outside node_modules. */
function packageOf(url: string): string | undefined {
  return /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
}

describe('what a home-agent command loads', () => {
  it('lists the paired devices without loading MQTT.js or modbus-serial, which only a connection needs', async () => {
    const listed = await runBinListingLoads(['devices', 'list', '--data-dir', path.join(folder, 'home')]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('No paired devices.');
    const packages = new Set(listed.loaded.map(packageOf));
    expect(packages).toContain('better-sqlite3');
    expect(packages).not.toContain('mqtt');
    expect(packages).not.toContain('modbus-serial');
  }, 120_000);
});
