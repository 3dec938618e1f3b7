import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrations } from '../../../host/store/migrations.ts';
import { runMigrations } from '../../../host/store/run-migrations.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../host/store/paired-device-store.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

const meterIdentity = { id: 'sdm120-usb5-u3', kind: 'energy_meter', model: 'SDM120', firmware: '' };
const readTool = {
  name: 'read',
  description: 'Read',
  parameters: { type: 'object' },
  parallelSafe: true,
  serial: false,
};
const lampIdentity = { id: 'lamp-7f3a', kind: 'lamp', model: 'HA-Lamp 2', firmware: '1.4.0' };
const pinnedTools = { tools: [readTool] };

/** A version 9 file as the previous release wrote it: a Modbus unit with its placement and pinned tools, a lamp of our protocol. */
function version9File(): string {
  const file = folder.file();
  const old = new Database(file);
  runMigrations({ db: old, file, migrations: migrations.slice(0, 9) });
  const insert = old.prepare(
    'INSERT INTO paired_devices (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, profile, modbus, pinned_declaration) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)',
  );
  insert.run(
    meterIdentity.id,
    '/dev/ttyUSB5',
    'Meter',
    JSON.stringify(meterIdentity),
    JSON.stringify([readTool]),
    '["read"]',
    1_700_000_000_000,
    'eastron-sdm120',
    '{"unit":3,"bus":{"baud":19200,"parity":"even","stopbits":1}}',
    JSON.stringify(pinnedTools),
  );
  insert.run(
    lampIdentity.id,
    '/dev/ttyUSB0',
    'Kitchen lamp',
    JSON.stringify(lampIdentity),
    '[]',
    '[]',
    1_700_000_000_001,
    null,
    null,
    null,
  );
  old.close();
  return file;
}

describe('migration 14: the way in', () => {
  it('carries a Modbus row over with its way in and its options, flattened, its pinned declaration kept', () => {
    const file = version9File();
    const db = folder.own(openDatabase({ file }));
    const devices = new PairedDeviceStore({ db, waysIn: builtinWaysIn() });
    expect(devices.get(meterIdentity.id)).toEqual({
      path: '/dev/ttyUSB5',
      alias: 'Meter',
      identity: meterIdentity,
      tools: [readTool],
      grants: ['read'],
      pairedAt: 1_700_000_000_000,
      confirmedIdentity: true,
      profile: 'eastron-sdm120',
      wayIn: 'modbus',
      options: { unit: 3, baud: 19200, parity: 'even', stopbits: 1 },
      pinned: pinnedTools,
    });
    expect(devices.get(lampIdentity.id)).toEqual({
      path: '/dev/ttyUSB0',
      alias: 'Kitchen lamp',
      identity: lampIdentity,
      tools: [],
      grants: [],
      pairedAt: 1_700_000_000_001,
      confirmedIdentity: true,
      wayIn: 'serial',
    });
    const columns = (db.prepare('PRAGMA table_info(paired_devices)').all() as { name: string }[]).map(
      (column) => column.name,
    );
    expect(columns).toContain('pinned_declaration');
    expect(columns).not.toContain('modbus');
  });

  it('keeps one device per path, except units of one bus, in the index itself', () => {
    const db = folder.own(openDatabase({ file: version9File() }));
    const insert = db.prepare(
      "INSERT INTO paired_devices (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, way_in, way_in_options) VALUES (?, ?, 'x', '{}', '[]', '[]', 0, 1, ?, ?)",
    );
    expect(() => insert.run('other-lamp', '/dev/ttyUSB0', 'serial', null)).toThrow(/UNIQUE/);
    expect(() =>
      insert.run('same-unit', '/dev/ttyUSB5', 'modbus', '{"unit":3,"baud":19200,"parity":"even","stopbits":1}'),
    ).toThrow(/UNIQUE/);
    insert.run('unit-4', '/dev/ttyUSB5', 'modbus', '{"unit":4,"baud":19200,"parity":"even","stopbits":1}');
  });
});
