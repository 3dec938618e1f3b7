import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkSerialPort } from '../../../devices/serial/check-serial-port.ts';
import { startPseudoTerminalPair } from '../../../devices/simulator/pseudo-terminal-pair.ts';
import { findExecutable } from '../../../host/devices/find-executable.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-serial-check-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const nothingAnnounced = async () => [];
const LINUX_SYSFS = existsSync('/sys/dev/char');
/** The machine's first real UART or USB serial port, as sysfs describes it (none in many containers). */
const REAL_UART = ['ttyS0', 'ttyUSB0', 'ttyACM0', 'ttyAMA0'].find(
  (name) => existsSync(`/sys/class/tty/${name}/device`) && existsSync(`/dev/${name}`),
);

describe.skipIf(!LINUX_SYSFS)('checkSerialPort on Linux (what /sys says of the device number), opening nothing', () => {
  it.skipIf(REAL_UART === undefined)('admits a UART or USB serial port, also through a by-id style link', async () => {
    expect(await checkSerialPort(`/dev/${REAL_UART}`, { listAnnounced: nothingAnnounced })).toEqual({ ok: true });
    const link = path.join(folder(), 'usb-FTDI_FT232R_A50285BI-if00-port0');
    symlinkSync(`/dev/${REAL_UART}`, link);
    expect(await checkSerialPort(link, { listAnnounced: nothingAnnounced })).toEqual({ ok: true });
  });

  it('refuses the controlling terminal, the console, a virtual terminal and the pty multiplexer, saying what each is', async () => {
    const terminal = (name: string) =>
      `is the terminal '${name}' (a console or virtual terminal), not a serial port: opening it would type into it`;
    expect(await checkSerialPort('/dev/tty', { listAnnounced: nothingAnnounced })).toEqual({
      ok: false,
      reason: `/dev/tty ${terminal('tty')}`,
    });
    expect(await checkSerialPort('/dev/console', { listAnnounced: nothingAnnounced })).toEqual({
      ok: false,
      reason: `/dev/console ${terminal('console')}`,
    });
    if (existsSync('/dev/tty1'))
      expect(await checkSerialPort('/dev/tty1', { listAnnounced: nothingAnnounced })).toMatchObject({
        reason: `/dev/tty1 ${terminal('tty1')}`,
      });
    expect(await checkSerialPort('/dev/ptmx', { listAnnounced: nothingAnnounced })).toMatchObject({
      reason: `/dev/ptmx ${terminal('ptmx')}`,
    });
  });

  it('refuses a character device of another kind, naming it as the system does', async () => {
    expect(await checkSerialPort('/dev/null', { listAnnounced: nothingAnnounced })).toEqual({
      ok: false,
      reason: "/dev/null is not a serial port: the system lists it as the mem device 'null'",
    });
  });

  it('names a watchdog as the system lists it (a sysfs tree that maps /dev/null’s number to one)', async () => {
    // Built by hand, as /sys/dev/char/10:130 looks where a watchdog driver runs; it holds /dev/null's 1:3.
    const sys = folder();
    const watchdog = path.join(sys, 'devices/virtual/watchdog/watchdog');
    mkdirSync(watchdog, { recursive: true });
    mkdirSync(path.join(sys, 'class/watchdog'), { recursive: true });
    symlinkSync(path.join(sys, 'class/watchdog'), path.join(watchdog, 'subsystem'));
    mkdirSync(path.join(sys, 'dev/char'), { recursive: true });
    symlinkSync(watchdog, path.join(sys, 'dev/char/1:3'));
    expect(await checkSerialPort('/dev/null', { listAnnounced: nothingAnnounced, sysDirectory: sys })).toEqual({
      ok: false,
      reason: "/dev/null is not a serial port: the system lists it as the watchdog device 'watchdog'",
    });
  });

  it.skipIf(findExecutable('socat') === undefined)(
    'refuses a pseudo-terminal no running simulator announced, by its link or its /dev/pts name, and admits an announced one',
    async () => {
      const dir = folder();
      const pair = await startPseudoTerminalPair({
        hostPath: path.join(dir, 'port'),
        devicePath: path.join(dir, 'dev'),
      });
      cleanups.push(() => pair.close());
      const pts = await realpath(pair.hostPath);
      expect(pts).toMatch(/^\/dev\/pts\/\d+$/);
      for (const named of [pair.hostPath, pts])
        expect(await checkSerialPort(named, { listAnnounced: nothingAnnounced })).toEqual({
          ok: false,
          reason: `${named} is a pseudo-terminal that no running simulator announced: the window opens only serial ports and simulators' ports. Pair a pseudo-terminal you chose (socat, simavr) on the command line: home-agent devices pair ${named}`,
        });
      const announced = async () => [{ path: pair.hostPath, id: 'lamp-1', kind: 'lamp', pid: process.pid }];
      expect(await checkSerialPort(pair.hostPath, { listAnnounced: announced })).toEqual({ ok: true });
      expect(await checkSerialPort(pts, { listAnnounced: announced })).toEqual({ ok: true });
    },
  );
});

describe('checkSerialPort on any system', () => {
  it('refuses what is not a character device, saying what it is, and a path that is not there', async () => {
    const dir = folder();
    const file = path.join(dir, 'passwd');
    writeFileSync(file, 'root:x:0:0');
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const check = (named: string) => checkSerialPort(named, { listAnnounced: nothingAnnounced });
    expect(await check(file)).toEqual({ ok: false, reason: `${file} is not a serial port (a regular file)` });
    expect(await check(dir)).toEqual({ ok: false, reason: `${dir} is not a serial port (a directory)` });
    expect(await check(fifo)).toEqual({ ok: false, reason: `${fifo} is not a serial port (a FIFO)` });
    expect(await check(path.join(dir, 'gone'))).toEqual({
      ok: false,
      reason: `${path.join(dir, 'gone')} is not there (ENOENT): is the device plugged in?`,
    });
  });

  it('without sysfs (macOS, Windows), admits only what the system lists as serial ports', async () => {
    const sys = folder();
    const listPorts = async () => [{ path: '/dev/null' }];
    expect(
      await checkSerialPort('/dev/null', { listAnnounced: nothingAnnounced, sysDirectory: sys, listPorts }),
    ).toEqual({ ok: true });
    expect(
      await checkSerialPort('/dev/zero', { listAnnounced: nothingAnnounced, sysDirectory: sys, listPorts }),
    ).toEqual({
      ok: false,
      reason: "/dev/zero is not among the system's serial ports: the window opens only those and simulators' ports",
    });
  });
});
