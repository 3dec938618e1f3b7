import { access, readdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SerialPort } from 'serialport';
import { listAnnouncedPorts } from '../simulator/simulator-index.ts';
import { safeText } from '../../core/text/safe-text.ts';

import type { PortSource } from './port-source.ts';

export { PORT_SOURCE_MEANINGS, type PortSource } from './port-source.ts';

/** A port worth offering for pairing, what the OS says about it, and how it was found. */
export interface PortCandidate {
  path: string;
  source: PortSource;
  /** USB vendor and product ids (hex, as the OS writes them), where known. */
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
  manufacturer?: string;
  /** A simulator's port: the id and kind it plays, and the profile it needs when it speaks plain lines. */
  simulated?: { id: string; kind: string; profile?: string };
}

/** What serialport's list reports of a port (only the fields a scan shows). */
export interface ListedPort {
  path: string;
  manufacturer?: string | undefined;
  vendorId?: string | undefined;
  productId?: string | undefined;
  serialNumber?: string | undefined;
}

/** Options of a scan; every source is injectable so tests can stand in for the OS. */
export interface ScanPortsOptions {
  manualPaths?: readonly string[];
  devDirectory?: string;
  /** Where the kernel describes ttys (`/sys/class/tty`): USB ids when the OS list is unavailable. */
  sysTtyDirectory?: string;
  listPorts?: () => Promise<ListedPort[]>;
  /** The ports running simulators announced (default: `listAnnouncedPorts`). */
  listSimulated?: () => Promise<{ path: string; id: string; kind: string; profile?: string }[]>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEV_PATTERN = /^tty(?:USB|ACM|S|AMA)\d+$/;

/**
 * Finds candidate serial ports without opening any (opening resets many Arduinos): serialport's
 * list (which fails without udevadm), then `/dev` (ttyUSB*, ttyACM*, ttyS*, ttyAMA*) with USB ids
 * read from sysfs, then running simulators' pseudo-terminals, then paths given by the person.
 * Never throws: what went wrong comes back in `warnings`.
 */
export async function scanPorts(
  options: ScanPortsOptions = {},
): Promise<{ candidates: PortCandidate[]; warnings: string[] }> {
  const found = new Map<string, PortCandidate>();
  const warnings: string[] = [];
  const timeoutMs = options.timeoutMs ?? 3000;
  const devDirectory = options.devDirectory ?? '/dev';
  try {
    const listed = await withTimeout((options.listPorts ?? (() => SerialPort.list()))(), timeoutMs, options.signal);
    for (const port of listed) found.set(port.path, { path: port.path, source: 'os', ...usbFields(port) });
  } catch (error) {
    warnings.push(
      `the system's serial port list is unavailable (${(error as Error).message}); looking in ${devDirectory} instead`,
    );
  }
  try {
    const names = await withTimeout(readdir(devDirectory), timeoutMs, options.signal);
    for (const name of names.filter((entry) => DEV_PATTERN.test(entry)).sort()) {
      const path = join(devDirectory, name);
      if (found.has(path)) continue;
      const usb = await readSysfsUsb(join(options.sysTtyDirectory ?? '/sys/class/tty', name));
      found.set(path, { path, source: 'dev', ...usb });
    }
  } catch (error) {
    warnings.push(`looking in ${devDirectory} failed: ${(error as Error).message}`);
  }
  try {
    const simulated = await withTimeout(
      (options.listSimulated ?? (() => listAnnouncedPorts()))(),
      timeoutMs,
      options.signal,
    );
    for (const port of simulated) {
      if (!found.has(port.path))
        found.set(port.path, {
          path: port.path,
          source: 'sim',
          simulated: {
            id: port.id,
            kind: port.kind,
            ...(port.profile !== undefined ? { profile: port.profile } : {}),
          },
        });
    }
  } catch (error) {
    warnings.push(`listing running simulators failed: ${(error as Error).message}`);
  }
  for (const path of options.manualPaths ?? []) {
    try {
      await access(path);
      if (!found.has(path)) found.set(path, { path, source: 'path' });
    } catch (error) {
      warnings.push(`${path} is not there: ${(error as Error).message}`);
    }
  }
  return { candidates: [...found.values()], warnings };
}

/**
 * One line of `devices scan`: `PATH<TAB>SOURCE<TAB>VENDOR:PRODUCT<TAB>SERIAL`, empty fields where
 * unknown. Each field is shown safely (a USB adapter names its own serial number, a simulator's
 * announcement its path), so none can add a column, a line or a terminal command.
 */
export function formatScanLine(candidate: PortCandidate): string {
  const ids =
    candidate.vendorId !== undefined || candidate.productId !== undefined
      ? `${candidate.vendorId ?? ''}:${candidate.productId ?? ''}`
      : '';
  return [candidate.path, candidate.source, ids, candidate.serialNumber ?? ''].map(safeText).join('\t');
}

function usbFields(port: ListedPort): Omit<PortCandidate, 'path' | 'source'> {
  return {
    ...(port.vendorId ? { vendorId: port.vendorId.toLowerCase() } : {}),
    ...(port.productId ? { productId: port.productId.toLowerCase() } : {}),
    ...(port.serialNumber ? { serialNumber: port.serialNumber } : {}),
    ...(port.manufacturer ? { manufacturer: port.manufacturer } : {}),
  };
}

/**
 * The USB ids of a tty from sysfs (`/sys/class/tty/NAME/device` leads into the USB interface; the
 * device with `idVendor` is a few folders up). Empty when the tty is not on USB or sysfs is absent.
 */
async function readSysfsUsb(ttyFolder: string): Promise<Omit<PortCandidate, 'path' | 'source'>> {
  let folder: string;
  try {
    folder = await realpath(join(ttyFolder, 'device'));
  } catch {
    // A tty without a device link (virtual consoles, no sysfs): nothing the OS says about it.
    return {};
  }
  for (let depth = 0; depth < 5 && folder !== dirname(folder); depth++, folder = dirname(folder)) {
    const vendorId = await readSmall(join(folder, 'idVendor'));
    if (vendorId === undefined) continue;
    const productId = await readSmall(join(folder, 'idProduct'));
    const serialNumber = await readSmall(join(folder, 'serial'));
    const manufacturer = await readSmall(join(folder, 'manufacturer'));
    return usbFields({ path: basename(ttyFolder), vendorId, productId, serialNumber, manufacturer });
  }
  return {};
}

async function readSmall(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text === '' ? undefined : text.slice(0, 200);
  } catch {
    // Absent attribute: that part is unknown.
    return undefined;
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => finish(() => reject(new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
    const onAbort = (): void => finish(() => reject(new Error('aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });
    function finish(settle: () => void): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    }
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}
