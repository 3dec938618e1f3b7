import { fileKind } from '../files/file-kind.ts';
import { realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SerialPort } from 'serialport';
import { listAnnouncedPorts, type AnnouncedPort } from '../simulator/simulator-index.ts';

/** Whether a path may be opened as a serial port by someone who did not choose it at a terminal. */
export type SerialPortCheck = { ok: true } | { ok: false; reason: string };

/** Where the facts come from (injectable so tests can stand in for the OS). */
export interface CheckSerialPortOptions {
  /** The ports running simulators announced (default: `listAnnouncedPorts`). */
  listAnnounced?: () => Promise<AnnouncedPort[]>;
  /** Where the kernel describes devices (default `/sys`). */
  sysDirectory?: string;
  /** The system's serial ports, asked only where there is no sysfs (default: serialport's list). */
  listPorts?: () => Promise<{ path: string }[]>;
}

/** Linux's major numbers of Unix98 pseudo-terminal slaves (`/dev/pts/N`). */
const PTY_MAJORS = { first: 136n, last: 143n };

/**
 * Decides, without opening anything, whether `path` is a serial port: a character device that a
 * running simulator announced, or one the system describes as a serial port — on Linux a tty with
 * hardware behind it (`/sys/dev/char/MAJOR:MINOR` is in the tty class and has a `device`: UARTs and
 * USB serial adapters, under any name or link such as `/dev/serial/by-id/…`); elsewhere one that
 * serialport's list names. Consoles, virtual terminals, `/dev/tty`, pseudo-terminals nobody
 * announced, watchdogs and every other device are refused, with what they are.
 */
export async function checkSerialPort(path: string, options: CheckSerialPortOptions = {}): Promise<SerialPortCheck> {
  let rdev: bigint;
  try {
    const found = await stat(path, { bigint: true });
    if (!found.isCharacterDevice()) return refuse(`${path} is not a serial port (${fileKind(found)})`);
    rdev = found.rdev;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return refuse(`${path} is not there (${code}): is the device plugged in?`);
  }
  if (await announcedBySimulator(path, options.listAnnounced ?? (() => listAnnouncedPorts()))) return { ok: true };
  const sys = options.sysDirectory ?? '/sys';
  if (!(await exists(join(sys, 'dev/char')))) return listedBySystem(path, options.listPorts);
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  const entry = join(sys, 'dev/char', `${major}:${minor}`);
  let device: string;
  try {
    device = await realpath(entry);
  } catch {
    // No sysfs entry: pseudo-terminals have none; nor has a device node whose driver is absent.
    if (major >= PTY_MAJORS.first && major <= PTY_MAJORS.last)
      return refuse(
        `${path} is a pseudo-terminal that no running simulator announced: the window opens only serial ports and simulators' ports. Pair a pseudo-terminal you chose (socat, simavr) on the command line: home-agent devices pair ${path}`,
      );
    return refuse(`${path} is a character device (${major}:${minor}) the system does not list as a serial port`);
  }
  const name = basename(device);
  const subsystem = await realpath(join(device, 'subsystem')).then(basename, () => 'unknown');
  if (subsystem !== 'tty')
    return refuse(`${path} is not a serial port: the system lists it as the ${subsystem} device '${name}'`);
  if (!(await exists(join(device, 'device'))))
    return refuse(
      `${path} is the terminal '${name}' (a console or virtual terminal), not a serial port: opening it would type into it`,
    );
  return { ok: true };
}

function refuse(reason: string): SerialPortCheck {
  return { ok: false, reason };
}

/** Whether a running simulator announced this port (by its path, or a link to the same pseudo-terminal). */
async function announcedBySimulator(path: string, listAnnounced: () => Promise<AnnouncedPort[]>): Promise<boolean> {
  const target = await realpath(path).catch(() => path);
  for (const port of await listAnnounced().catch(() => [])) {
    if (port.path === path) return true;
    if ((await realpath(port.path).catch(() => undefined)) === target) return true;
  }
  return false;
}

/** Without sysfs: the port (or what it links to) must be in the system's serial port list. */
async function listedBySystem(
  path: string,
  listPorts: (() => Promise<{ path: string }[]>) | undefined,
): Promise<SerialPortCheck> {
  const target = await realpath(path).catch(() => path);
  const listed = await (listPorts ?? (() => SerialPort.list()))().catch(() => []);
  for (const port of listed) {
    if (port.path === path || (await realpath(port.path).catch(() => port.path)) === target) return { ok: true };
  }
  return refuse(`${path} is not among the system's serial ports: the window opens only those and simulators' ports`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    // Absent: that is the answer.
    return false;
  }
}
