import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalPin } from '../../../host/approvals/approval-pin.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { TempStoreFolder } from '../store/temp-store-folder.ts';

let folder: TempStoreFolder;
let clock: number;
beforeEach(() => {
  folder = new TempStoreFolder();
  clock = 1_700_000_000_000;
});
afterEach(() => folder.dispose());

/** One process's view of the folder: its own connection to the same file. */
function open(): ApprovalPin {
  return new ApprovalPin({ db: folder.own(openDatabase({ file: folder.file() })), now: () => clock });
}

describe('ApprovalPin', () => {
  it('refuses every PIN until one is set, then accepts that one alone', () => {
    const pin = open();
    expect(pin.check('1234')).toEqual({ ok: false, message: expect.stringContaining('No approval PIN is set') });
    expect(pin.set({ pin: '1234' })).toEqual({ ok: true });
    expect(pin.check('1234')).toEqual({ ok: true });
    expect(pin.check('4321')).toMatchObject({ ok: false, message: expect.stringContaining('Wrong PIN: 4 tries left') });
    expect(pin.check(undefined)).toMatchObject({ ok: false, message: expect.stringContaining('needs the PIN') });
  });

  it('locks PIN approvals in every process for ten minutes after five wrong PINs given through two connections', () => {
    const window = open();
    const mcp = open();
    window.set({ pin: '2468' });
    expect(window.check('0000').ok).toBe(false);
    expect(mcp.check('0001').ok).toBe(false);
    expect(window.check('0002').ok).toBe(false);
    expect(mcp.check('0003')).toMatchObject({ message: expect.stringContaining('1 try left') });
    expect(window.check('0004')).toMatchObject({ message: expect.stringContaining('locked for 10 more minutes') });
    // Locked: even the right PIN is refused, in the other process too.
    expect(mcp.check('2468')).toMatchObject({ ok: false, message: expect.stringContaining('home-agent pin reset') });
    clock += 10 * 60_000 - 1;
    expect(window.check('2468').ok).toBe(false);
    clock += 1;
    expect(window.check('2468')).toEqual({ ok: true });
  });

  it('starts the count again after a right PIN', () => {
    const pin = open();
    pin.set({ pin: '2468' });
    for (const wrong of ['1', '2', '3', '4']) expect(pin.check(wrong).ok).toBe(false);
    expect(pin.check('2468').ok).toBe(true);
    expect(pin.check('9999')).toMatchObject({ message: expect.stringContaining('4 tries left') });
  });

  it('changes or removes the PIN only given the current one, and counts a wrong current PIN', () => {
    const pin = open();
    pin.set({ pin: '1111' });
    expect(pin.set({ pin: '2222' })).toMatchObject({ ok: false, message: expect.stringContaining('current PIN') });
    expect(pin.set({ pin: '2222', currentPin: '3333' })).toMatchObject({
      message: expect.stringContaining('4 tries left'),
    });
    expect(pin.remove('3333').ok).toBe(false);
    expect(pin.set({ pin: '2222', currentPin: '1111' })).toEqual({ ok: true });
    expect(pin.check('1111').ok).toBe(false);
    expect(pin.remove('2222')).toEqual({ ok: true });
    expect(pin.isSet()).toBe(false);
  });

  it('refuses a new PIN that is not 4 to 12 digits, saying what it must be', () => {
    expect(open().set({ pin: '12a' })).toMatchObject({ ok: false, message: expect.stringContaining('4 to 12 digits') });
  });

  it('resets a forgotten PIN and its lock at the machine', () => {
    const pin = open();
    pin.set({ pin: '1111' });
    for (const wrong of ['1', '2', '3', '4', '5']) pin.check(wrong);
    expect(pin.reset()).toBe(true);
    expect(pin.isSet()).toBe(false);
    expect(pin.set({ pin: '7777' })).toEqual({ ok: true });
    expect(pin.check('7777')).toEqual({ ok: true });
  });

  it('asks the PIN for what changes a lock, door or garage, not for what reads it, and follows the person’s marks', () => {
    const pin = open();
    expect(pin.needsPin({ tool: 'lock__set', deviceId: 'lock-1' }, {})).toBe(true);
    expect(pin.needsPin({ tool: 'garage__open', deviceId: 'garage-1' }, {})).toBe(true);
    expect(pin.needsPin({ tool: 'door__open', deviceId: 'door-1' }, {})).toBe(true);
    expect(pin.needsPin({ tool: 'lock__get', deviceId: 'lock-1' }, { readOnly: true })).toBe(false);
    expect(pin.needsPin({ tool: 'relay__set', deviceId: 'relay-1' }, {})).toBe(false);
    expect(pin.needsPin({ tool: 'lock__set' }, {})).toBe(false);
    pin.marks.setMark({ deviceId: 'relay-1', action: 'set', needsPin: true });
    pin.marks.setMark({ deviceId: 'lock-1', action: 'set', needsPin: false });
    // Another process's marks apply at the next call.
    const other = open();
    expect(other.needsPin({ tool: 'relay__set', deviceId: 'relay-1' }, {})).toBe(true);
    expect(other.needsPin({ tool: 'relay__set', deviceId: 'relay-2' }, {})).toBe(false);
    expect(other.needsPin({ tool: 'lock__set', deviceId: 'lock-1' }, {})).toBe(false);
  });

  it('asks the PIN for an action its profile marks (a relay channel that opens a door), unless the person lifted it', () => {
    const declared = new Set(['gate-relay:set']);
    const pin = new ApprovalPin({
      db: folder.own(openDatabase({ file: folder.file() })),
      now: () => clock,
      declaredPin: (deviceId, action) => declared.has(`${deviceId}:${action}`),
    });
    expect(pin.needsPin({ tool: 'relay__set', deviceId: 'gate-relay' }, {})).toBe(true);
    expect(pin.needsPin({ tool: 'relay__get', deviceId: 'gate-relay' }, { readOnly: true })).toBe(false);
    expect(pin.needsPin({ tool: 'relay__set', deviceId: 'lamp-relay' }, {})).toBe(false);
    pin.marks.setMark({ deviceId: 'gate-relay', action: 'set', needsPin: false });
    expect(pin.needsPin({ tool: 'relay__set', deviceId: 'gate-relay' }, {})).toBe(false);
  });
});
