import { SerialPort } from 'serialport';
import { MAX_FRAME_BYTES } from '../protocol/frame-schema.ts';
import { LineFramer } from './line-framer.ts';
import type { LineTransport, LineTransportHandlers, TransportConnector } from './line-transport.ts';
import { PortPathWatch, pathTarget, waitForPath } from './port-path.ts';
import { useEventLoopReadsAndWrites } from './unix-port-fast-path.ts';

/** Options of a serial line transport. */
export interface SerialLineOptions {
  path: string;
  baudRate?: number;
  maxFrameBytes?: number;
  /** How long opening may take before it fails. */
  openTimeoutMs?: number;
  /** How often to check that the path still leads to the port that was opened (default 100 ms). */
  watchPathMs?: number;
}

/** Opens a real serial port (or pseudo-terminal) framed into lines; the caller owns the result. */
export async function openSerialLineTransport(
  options: SerialLineOptions & { handlers: LineTransportHandlers; signal: AbortSignal },
): Promise<LineTransport> {
  const { path, handlers, signal } = options;
  signal.throwIfAborted();
  const port = new SerialPort({ path, baudRate: options.baudRate ?? 115_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`opening ${path} timed out`)), options.openTimeoutMs ?? 2000);
    const onAbort = (): void => finish(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    function finish(error: Error | null): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error === null) return resolve();
      if (port.isOpen) port.close(() => reject(error));
      else reject(error);
    }
    port.open((error) => finish(error ?? null));
  });
  // Before anything reads: every frame is then read and written without a trip through the thread pool.
  useEventLoopReadsAndWrites(port.port);
  const openedTarget = await pathTarget(path);
  return new SerialLineTransport(port, path, {
    ...handlers,
    maxBytes: options.maxFrameBytes ?? MAX_FRAME_BYTES,
    openedTarget,
    watchPathMs: options.watchPathMs ?? 100,
  });
}

/**
 * A pseudo-terminal whose master went away reads as endless EOF, which serialport 13 retries in a
 * loop instead of reporting a disconnect; a USB adapter's node can vanish the same way. So the
 * transport also watches its path: gone, or leading to another device, means unplugged.
 */
class SerialLineTransport implements LineTransport {
  private closedOnce = false;
  private pathLost = false;
  private readonly watch: PortPathWatch;

  constructor(
    private readonly port: SerialPort,
    readonly label: string,
    private readonly options: LineTransportHandlers & { maxBytes: number; openedTarget: string; watchPathMs: number },
  ) {
    const handlers = options;
    const framer = new LineFramer({
      maxBytes: handlers.maxBytes,
      onLine: handlers.onLine,
      onOversized: handlers.onOversized,
    });
    port.on('data', (data: Buffer) => framer.push(data));
    port.on('close', (error?: Error & { disconnected?: boolean }) => {
      this.watch.stop();
      if (this.closedOnce) return;
      this.closedOnce = true;
      const disconnected = error?.disconnected === true || this.pathLost;
      handlers.onClose({ disconnected, detail: error?.message ?? (this.pathLost ? `${label} vanished` : undefined) });
    });
    // After open, serialport reports read/write failures as 'error'; a port that errors is treated as gone.
    port.on('error', (error: Error) => {
      if (this.closedOnce) return;
      if (port.isOpen) port.close();
      else {
        this.closedOnce = true;
        handlers.onClose({ disconnected: true, detail: error.message });
      }
    });
    this.watch = new PortPathWatch({
      path: label,
      openedTarget: options.openedTarget,
      everyMs: options.watchPathMs,
      stillOpen: () => !this.closedOnce && port.isOpen,
      onLost: () => {
        this.pathLost = true;
        port.close();
      },
    });
  }

  get isOpen(): boolean {
    return !this.closedOnce && this.port.isOpen;
  }

  write(line: string): Promise<void> {
    if (!this.isOpen) return Promise.reject(new Error(`${this.label} is closed`));
    return new Promise((resolve, reject) => {
      this.port.write(line, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): Promise<void> {
    if (!this.port.isOpen) return Promise.resolve();
    return new Promise((resolve) => {
      this.port.close(() => resolve());
    });
  }
}

/** A connector for a serial path: present when the path exists (pseudo-terminals never show in list()). */
export function serialConnector(options: SerialLineOptions & { pollIntervalMs?: number }): TransportConnector {
  const interval = options.pollIntervalMs ?? 100;
  return {
    label: options.path,
    waitUntilPresent: (signal) => waitForPath({ path: options.path, intervalMs: interval, signal }),
    open: (handlers, signal) => openSerialLineTransport({ watchPathMs: interval, ...options, handlers, signal }),
  };
}
