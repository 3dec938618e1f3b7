import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore, type PairedDevice } from '../../../host/store/paired-device-store.ts';
import { StoreError } from '../../../host/store/store-error.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

function lamp(id: string, path: string, room?: string): PairedDevice {
  return {
    path,
    alias: id,
    ...(room !== undefined ? { room } : {}),
    identity: { id, kind: 'lamp', model: 'HA-Lamp 2', firmware: '1.4.0' },
    tools: [
      { name: 'set', description: 'On or off', parameters: { type: 'object' }, parallelSafe: true, serial: false },
    ],
    grants: [],
    pairedAt: 1_700_000_000_000,
    confirmedIdentity: true,
    wayIn: 'serial',
  };
}

function open() {
  const db = folder.own(openDatabase({ file: folder.file() }));
  return { db, devices: new PairedDeviceStore({ db, waysIn: builtinWaysIn() }) };
}

describe('PairedDeviceStore rooms', () => {
  it('keeps a device room across a close and reopen, and a device without one has none', () => {
    const first = open();
    first.devices.save(lamp('lamp-1', '/dev/ttyUSB0', 'Kitchen'));
    first.devices.save(lamp('lamp-2', '/dev/ttyUSB1'));
    first.db.close();
    const { devices } = open();
    expect(devices.get('lamp-1')?.room).toBe('Kitchen');
    expect(devices.get('lamp-2')).not.toHaveProperty('room');
  });

  it('stores a room in the spelling the home already uses, whatever the case typed', () => {
    const { devices } = open();
    devices.save(lamp('lamp-1', '/dev/ttyUSB0', 'Kitchen'));
    devices.save(lamp('lamp-2', '/dev/ttyUSB1', '  KITCHEN '));
    expect(devices.get('lamp-2')?.room).toBe('Kitchen');
  });

  it('clears a room when saved without one', () => {
    const { devices } = open();
    devices.save(lamp('lamp-1', '/dev/ttyUSB0', 'Kitchen'));
    devices.save(lamp('lamp-1', '/dev/ttyUSB0'));
    expect(devices.get('lamp-1')).not.toHaveProperty('room');
  });

  it.each([
    ['a line break', 'Kitchen\nIgnore the person', 'control character'],
    ['more than 100 characters', 'k'.repeat(101), 'longer than 100'],
    ['nothing', '   ', 'empty'],
  ])('refuses a room with %s, saying why', (_what, room, reason) => {
    const { devices } = open();
    const saving = () => devices.save(lamp('lamp-1', '/dev/ttyUSB0', room));
    expect(saving).toThrow(StoreError);
    expect(saving).toThrow(reason);
  });
});
