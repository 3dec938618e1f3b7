import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../../host/store/paired-device-store.ts';
import { builtinWaysIn } from '../../../../devices/ways-in/builtin-ways-in.ts';
import { runCli } from '../../../helpers/run-cli.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('devices list --json', () => {
  it('keeps the shape it had before the way in was stored (a unit’s `modbus` placement), adding the way in and its options', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-list-json-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = openDatabase({ file: databaseFileOf(dir) });
    new PairedDeviceStore({ db, waysIn: builtinWaysIn() }).save({
      path: '/dev/ttyUSB5',
      alias: 'Meter',
      identity: { id: 'sdm120-u1', kind: 'energy_meter', model: 'SDM120', firmware: '' },
      tools: [],
      grants: [],
      pairedAt: 1_700_000_000_000,
      confirmedIdentity: true,
      profile: 'eastron-sdm120',
      wayIn: 'modbus',
      options: { unit: 1, baud: 9600, parity: 'none', stopbits: 1 },
    });
    db.close();
    const listed = await runCli(['devices', 'list', '--json', '--data-dir', dir]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        path: '/dev/ttyUSB5',
        alias: 'Meter',
        room: '',
        identity: { id: 'sdm120-u1', kind: 'energy_meter', model: 'SDM120', firmware: '' },
        tools: [],
        grants: [],
        pairedAt: 1_700_000_000_000,
        confirmedIdentity: true,
        profile: 'eastron-sdm120',
        modbus: { unit: 1, bus: { baud: 9600, parity: 'none', stopbits: 1 } },
        wayIn: 'modbus',
        options: { unit: 1, baud: 9600, parity: 'none', stopbits: 1 },
      },
    ]);
    const text = await runCli(['devices', 'list', '--data-dir', dir]);
    expect(text.stdout).toContain('/dev/ttyUSB5 unit 1 at 9600 8N1 (profile eastron-sdm120)');
  }, 60_000);
});
