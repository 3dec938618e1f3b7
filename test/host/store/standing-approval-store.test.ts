import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../host/store/paired-device-store.ts';
import { StandingApprovalStore } from '../../../host/store/standing-approval-store.ts';
import { dataVersionOf } from '../../../host/store/data-version.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

function open(): StandingApprovalStore {
  return new StandingApprovalStore({
    db: folder.own(openDatabase({ file: folder.file() })),
    now: () => 1_700_000_000_000,
  });
}

describe('StandingApprovalStore', () => {
  it('covers exactly the tool on exactly the device it was given for, never more', () => {
    const store = open();
    expect(store.add({ tool: 'relay__set', deviceId: 'relay-1' })).toBe(true);
    expect(store.add({ tool: 'relay__set', deviceId: 'relay-1' })).toBe(false);
    expect(store.covers({ tool: 'relay__set', deviceId: 'relay-1' })).toBe(true);
    expect(store.covers({ tool: 'relay__set', deviceId: 'relay-2' })).toBe(false);
    expect(store.covers({ tool: 'relay__set' })).toBe(false);
    expect(store.covers({ tool: 'relay__pulse', deviceId: 'relay-1' })).toBe(false);
    store.add({ tool: 'mcp__delete_file' });
    expect(store.covers({ tool: 'mcp__delete_file' })).toBe(true);
    expect(store.covers({ tool: 'mcp__delete_file', deviceId: 'relay-1' })).toBe(false);
    expect(store.list()).toEqual([
      { tool: 'mcp__delete_file', createdAt: 1_700_000_000_000 },
      { tool: 'relay__set', deviceId: 'relay-1', createdAt: 1_700_000_000_000 },
    ]);
  });

  it('takes one back, and says so only when there was one', () => {
    const store = open();
    store.add({ tool: 'relay__set', deviceId: 'relay-1' });
    expect(store.revoke({ tool: 'relay__set', deviceId: 'relay-2' })).toBe(false);
    expect(store.revoke({ tool: 'relay__set', deviceId: 'relay-1' })).toBe(true);
    expect(store.covers({ tool: 'relay__set', deviceId: 'relay-1' })).toBe(false);
  });

  it("goes with its device when the device's pairing is deleted, by whichever connection deletes it", () => {
    const db = folder.own(openDatabase({ file: folder.file() }));
    const approvals = new StandingApprovalStore({ db });
    const paired = new PairedDeviceStore({ db });
    paired.save({
      path: '/dev/ttyUSB0',
      alias: 'Garden relay',
      identity: { id: 'relay-1', kind: 'relay', model: 'AT-4', firmware: '1.0' },
      tools: [
        { name: 'set', description: 'switch', parameters: { type: 'object' }, parallelSafe: false, serial: true },
      ],
      grants: ['set'],
      pairedAt: 1,
      confirmedIdentity: true,
      wayIn: 'serial',
    });
    approvals.add({ tool: 'relay__set', deviceId: 'relay-1' });
    approvals.add({ tool: 'relay__set', deviceId: 'relay-2' });
    const other = new PairedDeviceStore({ db: folder.own(openDatabase({ file: folder.file() })) });
    other.forget('relay-1');
    expect(approvals.list().map((approval) => approval.deviceId)).toEqual(['relay-2']);
  });
});

describe('dataVersionOf', () => {
  it("moves when another connection commits, and not for the connection's own writes", () => {
    const db = folder.own(openDatabase({ file: folder.file() }));
    const other = folder.own(openDatabase({ file: folder.file() }));
    const version = dataVersionOf(db);
    const first = version();
    new StandingApprovalStore({ db }).add({ tool: 'a' });
    expect(version()).toBe(first);
    new StandingApprovalStore({ db: other }).add({ tool: 'b' });
    const second = version();
    expect(second).not.toBe(first);
    expect(version()).toBe(second);
  });
});
