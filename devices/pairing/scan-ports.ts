import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SerialPort } from 'serialport';

/** A port worth offering for pairing, and how it was found. */
export interface PortCandidate {
  path: string;
  source: 'list' | 'dev' | 'manual';
  manufacturer?: string;
}

/** Options of a scan; `listPorts` defaults to serialport's own enumeration. */
export interface ScanPortsOptions {
  manualPaths?: readonly string[];
  devDirectory?: string;
  listPorts?: () => Promise<{ path: string; manufacturer?: string | undefined }[]>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEV_PATTERN = /^tty(?:USB|ACM|S)\d+$/;

/**
 * Finds candidate serial ports: serialport's list (which fails without udevadm), then `/dev`
 * (ttyUSB*, ttyACM*, ttyS*), then manual paths such as pseudo-terminals, which no list shows.
 * Never throws: what went wrong comes back in `warnings`.
 */
export async function scanPorts(
  options: ScanPortsOptions = {},
): Promise<{ candidates: PortCandidate[]; warnings: string[] }> {
  const found = new Map<string, PortCandidate>();
  const warnings: string[] = [];
  const timeoutMs = options.timeoutMs ?? 3000;
  try {
    const listed = await withTimeout((options.listPorts ?? (() => SerialPort.list()))(), timeoutMs, options.signal);
    for (const port of listed) {
      found.set(port.path, {
        path: port.path,
        source: 'list',
        ...(port.manufacturer ? { manufacturer: port.manufacturer } : {}),
      });
    }
  } catch (error) {
    warnings.push(
      `listing serial ports failed (${(error as Error).message}); scanning ${options.devDirectory ?? '/dev'} instead`,
    );
  }
  const devDirectory = options.devDirectory ?? '/dev';
  try {
    const names = await withTimeout(readdir(devDirectory), timeoutMs, options.signal);
    for (const name of names.filter((entry) => DEV_PATTERN.test(entry)).sort()) {
      const path = join(devDirectory, name);
      if (!found.has(path)) found.set(path, { path, source: 'dev' });
    }
  } catch (error) {
    warnings.push(`scanning ${devDirectory} failed: ${(error as Error).message}`);
  }
  for (const path of options.manualPaths ?? []) {
    try {
      await access(path);
      if (!found.has(path)) found.set(path, { path, source: 'manual' });
    } catch (error) {
      warnings.push(`${path} is not there: ${(error as Error).message}`);
    }
  }
  return { candidates: [...found.values()], warnings };
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
