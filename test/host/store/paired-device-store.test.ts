import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrations } from '../../../host/store/migrations.ts';
import { runMigrations } from '../../../host/store/run-migrations.ts';
import type { ModbusBusSettings } from '../../../devices/modbus/modbus-bus-settings.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore, type PairedDevice } from '../../../host/store/paired-device-store.ts';
import { StandingApprovalStore } from '../../../host/store/standing-approval-store.ts';
import { profileSource } from '../../../devices/profiles/resolve-profile.ts';
import type { InvalidRowReport } from '../../../host/store/parse-stored-row.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

const kitchenLamp: PairedDevice = {
  path: '/dev/ttyUSB0',
  alias: 'Kitchen lamp',
  identity: { id: 'lamp-7f3a', kind: 'lamp', model: 'HA-Lamp 2', firmware: '1.4.0' },
  tools: [
    {
      name: 'set',
      description: 'Switch on or off',
      parameters: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
      parallelSafe: true,
      serial: false,
    },
    {
      name: 'status',
      description: 'Read the state',
      parameters: { type: 'object' },
      parallelSafe: true,
      serial: false,
    },
  ],
  grants: ['set', 'status'],
  pairedAt: 1_700_000_000_000,
  confirmedIdentity: true,
  wayIn: 'serial',
};
const thermometer: PairedDevice = {
  path: '/dev/ttyACM1',
  alias: 'Hall thermometer',
  identity: { id: 'thermo-01', kind: 'thermometer', model: 'HA-T1', firmware: '0.9' },
  tools: [
    {
      name: 'read',
      description: 'Temperature in °C',
      parameters: { type: 'object' },
      parallelSafe: true,
      serial: false,
    },
  ],
  grants: [],
  pairedAt: 1_700_000_100_000,
  confirmedIdentity: false,
  wayIn: 'serial',
};

function open(onInvalidRow?: (report: InvalidRowReport) => void) {
  const db = folder.own(openDatabase({ file: folder.file() }));
  return {
    db,
    devices: new PairedDeviceStore({ db, waysIn: builtinWaysIn(), ...(onInvalidRow ? { onInvalidRow } : {}) }),
  };
}

describe('PairedDeviceStore', () => {
  it('keeps paired devices, their tools and grants across a close and reopen', () => {
    const first = open();
    first.devices.save(thermometer);
    first.devices.save(kitchenLamp);
    first.db.close();

    const { devices } = open();
    expect(devices.list()).toEqual([kitchenLamp, thermometer]);
    expect(devices.get('thermo-01')).toEqual(thermometer);
    expect(devices.getByPath('/dev/ttyUSB0')).toEqual(kitchenLamp);
    expect(devices.get('nope')).toBeUndefined();
  });

  it('updates a pairing in place when the device moves to another port or its grants change', () => {
    const { devices } = open();
    devices.save(kitchenLamp);
    devices.save({ ...kitchenLamp, path: '/dev/ttyUSB3', grants: ['status'] });
    expect(devices.list()).toEqual([{ ...kitchenLamp, path: '/dev/ttyUSB3', grants: ['status'] }]);
    expect(devices.getByPath('/dev/ttyUSB0')).toBeUndefined();
  });

  it('forgets a device with everything it was granted', () => {
    const { devices } = open();
    devices.save(kitchenLamp);
    expect(devices.forget('lamp-7f3a')).toBe(true);
    expect(devices.forget('lamp-7f3a')).toBe(false);
    expect(devices.list()).toEqual([]);
  });

  it('refuses a grant for a tool the device does not have', () => {
    const { devices } = open();
    expect(() => devices.save({ ...kitchenLamp, grants: ['set', 'self_destruct'] })).toThrow(
      expect.objectContaining({ kind: 'invalid_value', detail: expect.stringContaining('self_destruct') }),
    );
    expect(devices.list()).toEqual([]);
  });

  it('refuses a second device on a path that is already paired', () => {
    const { devices } = open();
    devices.save(kitchenLamp);
    expect(() => devices.save({ ...thermometer, path: kitchenLamp.path })).toThrow(
      expect.objectContaining({ kind: 'invalid_value' }),
    );
    expect(devices.list()).toEqual([kitchenLamp]);
  });

  it('refuses an identity that is not one', () => {
    const { devices } = open();
    expect(() => devices.save({ ...kitchenLamp, identity: { ...kitchenLamp.identity, id: '' } })).toThrow(
      expect.objectContaining({ kind: 'invalid_value' }),
    );
  });

  it('reports a stored device whose tools no longer validate', () => {
    const reports: InvalidRowReport[] = [];
    const { db, devices } = open((report) => reports.push(report));
    devices.save(kitchenLamp);
    devices.save(thermometer);
    db.prepare('UPDATE paired_devices SET tools = \'[{"name":"Bad Name"}]\' WHERE device_id = \'thermo-01\'').run();
    expect(devices.list()).toEqual([kitchenLamp]);
    expect(reports.map((report) => report.key)).toEqual(['thermo-01']);
  });
});

describe('PairedDeviceStore line profiles', () => {
  it('keeps the line profile a device speaks through, and none for devices of the Home Agent protocol', () => {
    const relay: PairedDevice = {
      path: '/dev/ttyUSB3',
      alias: 'Garden relays',
      identity: { id: 'relay-9', kind: 'relay', model: 'AT-RELAY-4', firmware: '2.1' },
      tools: [
        {
          name: 'set',
          description: 'Switch',
          parameters: { type: 'object' },
          parallelSafe: true,
          serial: false,
          confirm: true,
        },
      ],
      grants: ['set'],
      pairedAt: 1_700_000_200_000,
      confirmedIdentity: true,
      wayIn: 'serial',
      profile: 'at-relay-4',
    };
    const { devices } = open();
    devices.save(relay);
    devices.save(kitchenLamp);
    expect(devices.get('relay-9')).toEqual(relay);
    expect(devices.get('lamp-7f3a')).toEqual(kitchenLamp);
    expect(devices.get('lamp-7f3a')).not.toHaveProperty('profile');
  });
});

describe('PairedDeviceStore Modbus units', () => {
  const unit = (
    id: string,
    unitId: number,
    bus: ModbusBusSettings = { baud: 9600, parity: 'none', stopbits: 1 },
  ): PairedDevice => ({
    path: '/dev/ttyUSB5',
    alias: id,
    identity: { id, kind: 'energy_meter', model: 'SDM120', firmware: '' },
    tools: [{ name: 'read', description: 'Read', parameters: { type: 'object' }, parallelSafe: true, serial: false }],
    grants: [],
    pairedAt: 1_700_000_300_000 + unitId,
    confirmedIdentity: true,
    profile: 'eastron-sdm120',
    wayIn: 'modbus',
    options: { unit: unitId, ...bus },
  });

  it('keeps two units of one bus on one path, each with its unit and bus settings', () => {
    const first = open();
    first.devices.save(unit('sdm120-ttyusb5-u1', 1));
    first.devices.save(unit('sdm120-ttyusb5-u2', 2));
    first.db.close();
    const { devices } = open();
    expect(devices.list()).toEqual([unit('sdm120-ttyusb5-u1', 1), unit('sdm120-ttyusb5-u2', 2)]);
  });

  it('refuses a second device at the same unit, at other bus settings, or beside a device that has its port to itself', () => {
    const { devices } = open();
    devices.save(unit('sdm120-ttyusb5-u1', 1));
    expect(() => devices.save(unit('other-u1', 1))).toThrow(
      expect.objectContaining({ kind: 'invalid_value', detail: expect.stringContaining('same Modbus unit 1') }),
    );
    expect(() => devices.save(unit('fast-u2', 2, { baud: 19_200, parity: 'none', stopbits: 1 }))).toThrow(
      expect.objectContaining({ kind: 'invalid_value', detail: expect.stringContaining('other bus settings (baud)') }),
    );
    expect(() => devices.save({ ...kitchenLamp, path: '/dev/ttyUSB5' })).toThrow(
      expect.objectContaining({ kind: 'invalid_value' }),
    );
    expect(devices.list().map((device) => device.identity.id)).toEqual(['sdm120-ttyusb5-u1']);
  });

  it('refuses a unit id outside 1–247', () => {
    const { devices } = open();
    expect(() => devices.save(unit('broadcast-u0', 0))).toThrow(
      expect.objectContaining({ kind: 'invalid_value', detail: expect.stringContaining('Modbus placement') }),
    );
  });

  it('upgrades a version 5 file: its devices stay, and the path is then unique per unit', () => {
    const file = folder.file();
    const old = folder.own(new Database(file));
    runMigrations({ db: old, file, migrations: migrations.slice(0, 5) });
    old
      .prepare(
        'INSERT INTO paired_devices (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        'lamp-7f3a',
        '/dev/ttyUSB0',
        'Kitchen lamp',
        JSON.stringify(kitchenLamp.identity),
        JSON.stringify(kitchenLamp.tools),
        '["set","status"]',
        1_700_000_000_000,
        1,
        null,
      );
    old.close();
    const { db, devices } = open();
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(devices.list()).toEqual([kitchenLamp]);
    // The index itself refuses a second device of our protocol on the path, whatever the code does.
    expect(() =>
      db
        .prepare(
          "INSERT INTO paired_devices (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity) VALUES ('x', '/dev/ttyUSB0', 'x', '{}', '[]', '[]', 0, 1)",
        )
        .run(),
    ).toThrow(/UNIQUE/);
  });
});

describe('PairedDeviceStore pinned declarations', () => {
  /** A relay board paired through a profile file: its tools and the file's content are pinned. */
  const content = '{"protocol": "modbus-rtu", "confirm_switching": true}';
  const relay: PairedDevice = {
    ...thermometer,
    path: '/dev/ttyUSB7',
    identity: { id: 'relay-9', kind: 'relay', model: 'RELAY-8', firmware: '' },
    profile: '/home/me/relay.json',
    pinned: { tools: thermometer.tools, profile: profileSource(content) },
  };

  it('keeps what was pinned at pairing, a profile file’s content and its sha256 with it, across a close and reopen', () => {
    const first = open();
    first.devices.save(relay);
    first.db.close();
    const { devices } = open();
    expect(devices.get('relay-9')).toEqual(relay);
    expect(devices.get('relay-9')?.pinned?.profile).toEqual({
      content,
      // sha256 of the content, by `printf %s '…' | sha256sum`.
      sha256: '83c8e5adef78cc741ea1b91501bce2e05bed354eac9837d572c50a4151b90c5d',
    });
  });

  it('refuses a pinned profile whose sha256 is not its content’s, and reports a row changed that way', () => {
    const reports: InvalidRowReport[] = [];
    const { db, devices } = open((report) => reports.push(report));
    const forged = {
      ...relay,
      pinned: { tools: relay.tools, profile: { content: '{}', sha256: profileSource(content).sha256 } },
    };
    expect(() => devices.save(forged)).toThrow(
      expect.objectContaining({ kind: 'invalid_value', detail: expect.stringContaining('does not match its sha256') }),
    );
    devices.save(relay);
    db.prepare(
      "UPDATE paired_devices SET pinned_declaration = json_set(pinned_declaration, '$.profile.content', '{}')",
    ).run();
    expect(devices.list()).toEqual([]);
    expect(reports).toEqual([
      expect.objectContaining({ key: 'relay-9', detail: expect.stringContaining('does not match its sha256') }),
    ]);
  });

  it('pairs anew by removing what was stored under the id first, its standing approvals with it', () => {
    const { db, devices } = open();
    const approvals = new StandingApprovalStore({ db });
    devices.save(kitchenLamp);
    approvals.add({ tool: 'lamp__set', deviceId: 'lamp-7f3a' });
    devices.save({ ...kitchenLamp, grants: [] });
    expect(approvals.list().map((approval) => approval.tool)).toEqual(['lamp__set']);
    devices.save({ ...kitchenLamp, alias: 'lamp-7f3a', grants: [] }, { anew: true });
    expect(devices.list()).toEqual([{ ...kitchenLamp, alias: 'lamp-7f3a', grants: [] }]);
    expect(approvals.list()).toEqual([]);
  });

  it('upgrades a version 8 file: its devices stay, with nothing pinned until their first hello', () => {
    const file = folder.file();
    const old = folder.own(new Database(file));
    runMigrations({ db: old, file, migrations: migrations.slice(0, 8) });
    old
      .prepare(
        'INSERT INTO paired_devices (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, profile, modbus) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)',
      )
      .run(
        'lamp-7f3a',
        '/dev/ttyUSB0',
        'Kitchen lamp',
        JSON.stringify(kitchenLamp.identity),
        JSON.stringify(kitchenLamp.tools),
        '["set","status"]',
        1_700_000_000_000,
        1,
      );
    old.close();
    const { devices } = open();
    expect(devices.list()).toEqual([kitchenLamp]);
    expect(devices.get('lamp-7f3a')?.pinned).toBeUndefined();
  });
});

describe('PairedDeviceStore followed ports', () => {
  const followed: PairedDevice = {
    ...kitchenLamp,
    path: '/dev/ttyUSB1',
    serialLink: 'usb-FTDI_FT232R_USB_UART_A10K4ZQX-if00-port0',
    movedFrom: { path: '/dev/ttyUSB0', at: 1_700_000_200_000, because: 'usb-serial' },
  };

  it('keeps a device’s by-id link and where it was followed from across a close and reopen', () => {
    const first = open();
    first.devices.save(followed);
    first.db.close();
    expect(open().devices.list()).toEqual([followed]);
  });

  it('refuses a by-id link that is not one file name', () => {
    const { devices } = open();
    for (const serialLink of ['../../etc/passwd', 'usb-\u001b[2J', ''])
      expect(() => devices.save({ ...followed, serialLink })).toThrow(
        expect.objectContaining({ kind: 'invalid_value', detail: expect.stringContaining('by-id link') }),
      );
    expect(devices.list()).toEqual([]);
  });

  it('keeps a device whose stored move does not read, without saying it moved', () => {
    const { db, devices } = open();
    devices.save(followed);
    db.prepare('UPDATE paired_devices SET moved_from = \'{"path":1}\'').run();
    const { movedFrom: _movedFrom, ...rest } = followed;
    expect(devices.list()).toEqual([rest]);
  });
});
