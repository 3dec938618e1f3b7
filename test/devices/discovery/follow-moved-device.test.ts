import { chownSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMovedPort, serialLinkOf } from '../../../devices/discovery/follow-moved-device.ts';
import { describeMove } from '../../../devices/discovery/move-reason.ts';
import { startPseudoTerminalPair } from '../../../devices/simulator/pseudo-terminal-pair.ts';
import { announceSimulator } from '../../../devices/simulator/simulator-index.ts';
import { findExecutable } from '../../../host/devices/find-executable.ts';

const hasSocat = findExecutable('socat') !== undefined;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `home-agent-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A pseudo-terminal, as a USB adapter's tty stands in for: its link path and the /dev/pts node it leads to. */
async function pty(dir: string, name: string): Promise<{ link: string; node: string }> {
  const pair = await startPseudoTerminalPair({
    hostPath: path.join(dir, `${name}-host`),
    devicePath: path.join(dir, `${name}-device`),
  });
  cleanups.push(() => pair.close());
  return { link: pair.hostPath, node: realpathSync(pair.hostPath) };
}

const lamp = { id: 'lamp-1', kind: 'lamp', model: 'SIM-LAMP', firmware: '1.2.0' };
const SERIAL = 'usb-FTDI_FT232R_USB_UART_A10K4ZQX-if00-port0';

describe.skipIf(!hasSocat)(`a USB adapter told by its serial number${hasSocat ? '' : ' (skipped: socat)'}`, () => {
  it('names the by-id link of a port, follows the link to another tty, and says nothing while it is where it was or unplugged', async () => {
    const byId = tempDir('by-id');
    const ports = tempDir('ports');
    const first = await pty(ports, 'first');
    const second = await pty(ports, 'second');
    const link = path.join(byId, SERIAL);
    symlinkSync(first.node, link);

    expect(await serialLinkOf(first.link, byId)).toBe(SERIAL);
    expect(await serialLinkOf(second.link, byId)).toBeUndefined();
    const paired = { path: first.link, identity: lamp, serialLink: SERIAL };
    expect(await findMovedPort(paired, { byIdDirectory: byId })).toBeUndefined();

    // Plugged in again, it came up on another tty: udev's link leads there now.
    rmSync(link);
    symlinkSync(second.node, link);
    expect(await findMovedPort(paired, { byIdDirectory: byId })).toEqual({ path: second.node, because: 'usb-serial' });

    // Unplugged: no link, nowhere to follow it.
    rmSync(link);
    expect(await findMovedPort(paired, { byIdDirectory: byId })).toBeUndefined();
    // A stored name that is not one file name is never followed out of the folder.
    const outside = tempDir('outside');
    symlinkSync(second.node, path.join(outside, 'x'));
    const escape = path.relative(byId, path.join(outside, 'x'));
    expect(await findMovedPort({ ...paired, serialLink: escape }, { byIdDirectory: byId })).toBeUndefined();
  });
});

describe('a simulated device told by its simulator entry', () => {
  async function announce(
    index: string,
    devices: { path: string; id: string; kind: string; model?: string; firmware?: string }[],
  ) {
    const announcement = await announceSimulator({ devices, directory: index });
    cleanups.push(() => announcement.close());
  }

  function port(dir: string, name: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, '');
    return file;
  }

  it('follows a device whose port is gone to the port a running simulator announces with its whole identity', async () => {
    const index = tempDir('index');
    const ports = tempDir('ports');
    const gone = path.join(ports, 'old', 'lamp-1');
    const now = port(ports, 'lamp-1');
    await announce(index, [{ path: now, ...lamp }]);
    expect(await findMovedPort({ path: gone, identity: lamp }, { simulatorIndex: index })).toEqual({
      path: now,
      because: 'simulator',
    });
  });

  it('does not follow it when its port is still there, when the entry differs in any part of the identity, is another user’s port, or when two entries fit', async () => {
    const index = tempDir('index');
    const ports = tempDir('ports');
    const gone = path.join(ports, 'old', 'lamp-1');
    const there = port(ports, 'there');
    await announce(index, [
      { path: port(ports, 'other-model'), ...lamp, model: 'REAL-LAMP' },
      { path: port(ports, 'other-firmware'), ...lamp, firmware: '2.0.0' },
      { path: port(ports, 'other-kind'), ...lamp, kind: 'relay' },
      { path: port(ports, 'no-identity'), id: 'lamp-1', kind: 'lamp' },
    ]);
    expect(await findMovedPort({ path: gone, identity: lamp }, { simulatorIndex: index })).toBeUndefined();
    // An entry that fits, but the paired port is where it was: offline, not moved.
    const fits = tempDir('index');
    await announce(fits, [{ path: port(ports, 'fits'), ...lamp }]);
    expect(await findMovedPort({ path: there, identity: lamp }, { simulatorIndex: fits })).toBeUndefined();
    expect(await findMovedPort({ path: gone, identity: lamp }, { simulatorIndex: fits })).toMatchObject({
      because: 'simulator',
    });
    // Another user's port, announced in the shared index: never followed.
    if (process.getuid?.() === 0) {
      const planted = tempDir('index');
      const foreign = port(ports, 'foreign');
      chownSync(foreign, 65534, 65534);
      await announce(planted, [{ path: foreign, ...lamp }]);
      expect(await findMovedPort({ path: gone, identity: lamp }, { simulatorIndex: planted })).toBeUndefined();
    }
    // Two entries with that device: which one is it, only the person can say.
    const both = tempDir('index');
    await announce(both, [
      { path: port(ports, 'fits-1'), ...lamp },
      { path: port(ports, 'fits-2'), ...lamp },
    ]);
    expect(await findMovedPort({ path: gone, identity: lamp }, { simulatorIndex: both })).toBeUndefined();
  });

  it('says a move in words, with how it was told', () => {
    expect(describeMove({ from: '/dev/ttyUSB0', to: '/dev/ttyUSB1', because: 'usb-serial' })).toBe(
      'moved from /dev/ttyUSB0 to /dev/ttyUSB1 (the same USB serial number)',
    );
    expect(describeMove({ from: '/a/lamp-1', to: '/b/lamp-2', because: 'simulator' })).toBe(
      'moved from /a/lamp-1 to /b/lamp-2 (the same simulated device)',
    );
  });
});
