import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../../host/store/paired-device-store.ts';
import { ApprovalPin } from '../../../../host/approvals/approval-pin.ts';
import { builtinWaysIn } from '../../../../devices/ways-in/builtin-ways-in.ts';
import { runCli } from '../../../helpers/run-cli.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A data folder with a paired relay board (set, get) and the approval PIN 2468, locked after five wrong PINs. */
function seededFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-pin-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDatabase({ file: databaseFileOf(dir) });
  new PairedDeviceStore({ db, waysIn: builtinWaysIn() }).save({
    path: '/dev/ttyUSB7',
    alias: 'Gate relay',
    identity: { id: 'relay-1', kind: 'relay', model: 'AT-RELAY-4', firmware: '1.4.0' },
    tools: [
      {
        name: 'set',
        description: 'Switch a channel.',
        parameters: { type: 'object', properties: {} },
        parallelSafe: false,
        serial: false,
      },
    ],
    grants: [],
    pairedAt: 1_700_000_000_000,
    confirmedIdentity: true,
    wayIn: 'serial',
  });
  const pin = new ApprovalPin({ db });
  pin.set({ pin: '2468' });
  for (const wrong of ['1', '2', '3', '4', '5']) pin.check(wrong);
  db.close();
  return dir;
}

function pinOf(dir: string): ApprovalPin {
  const db = openDatabase({ file: databaseFileOf(dir) });
  cleanups.push(() => db.close());
  return new ApprovalPin({ db });
}

describe('home-agent devices pin', () => {
  it('marks an action of a paired device as needing the PIN, and off again', async () => {
    const dir = seededFolder();
    const on = await runCli(['devices', 'pin', 'relay-1', 'set', 'on', '--data-dir', dir]);
    expect(on).toMatchObject({ code: 0, stdout: 'set on relay-1 needs the approval PIN from its next call.\n' });
    expect(pinOf(dir).needsPin({ tool: 'relay__set', deviceId: 'relay-1' }, {})).toBe(true);
    const off = await runCli(['devices', 'pin', 'relay-1', 'set', 'off', '--data-dir', dir]);
    expect(off.code).toBe(0);
    expect(pinOf(dir).needsPin({ tool: 'relay__set', deviceId: 'relay-1' }, {})).toBe(false);
  });

  it('exits 1 naming what there is for an unknown device or action, and 2 for a wrong command line', async () => {
    const dir = seededFolder();
    const device = await runCli(['devices', 'pin', 'lamp-9', 'set', 'on', '--data-dir', dir]);
    expect(device.code).toBe(1);
    expect(device.stderr).toContain('lamp-9 is not paired');
    const action = await runCli(['devices', 'pin', 'relay-1', 'pulse', 'on', '--data-dir', dir]);
    expect(action.code).toBe(1);
    expect(action.stderr).toContain('its actions are set');
    expect((await runCli(['devices', 'pin', 'relay-1', 'set', 'yes', '--data-dir', dir])).code).toBe(2);
  });
});

describe('home-agent pin reset', () => {
  it('removes a forgotten PIN and the lock after wrong PINs, so a new one can be set', async () => {
    const dir = seededFolder();
    expect(pinOf(dir).check('2468')).toMatchObject({ ok: false, message: expect.stringContaining('locked') });
    const reset = await runCli(['pin', 'reset', '--data-dir', dir]);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('The approval PIN was removed.');
    const pin = pinOf(dir);
    expect(pin.isSet()).toBe(false);
    expect(pin.set({ pin: '1357' })).toEqual({ ok: true });
    expect(pin.check('1357')).toEqual({ ok: true });
  });

  it('refuses anything but reset', async () => {
    const dir = seededFolder();
    const wrong = await runCli(['pin', 'show', '--data-dir', dir]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('the only thing to do here is reset');
  });
});
