import { readSync, writeSync } from 'node:fs';

/** What this reads of serialport's Linux/macOS port binding (`SerialPort.port` once open). */
interface UnixPortBinding {
  fd: number | null;
  poller: { once(event: 'readable' | 'writable', callback: (error: Error | null) => void): unknown };
  writeOperation: Promise<void> | null;
  read(buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number; buffer: Buffer }>;
  write(buffer: Buffer): Promise<void>;
}

/** Errors that only mean "not now": wait for the poller and try again. */
const NOT_NOW = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);
/** Errors serialport's own read and write take for an unplugged port. */
const GONE = new Set(['EBADF', 'ENXIO', 'UNKNOWN']);

function isUnixPortBinding(value: unknown): value is UnixPortBinding {
  const port = value as Partial<UnixPortBinding> | null;
  return typeof port?.fd === 'number' && typeof port.poller?.once === 'function' && typeof port.read === 'function';
}

function closedError(): Error {
  // `canceled` tells serialport's stream the port is closing, not lost.
  return Object.assign(new Error('Port is not open'), { canceled: true });
}

function until(port: UnixPortBinding, event: 'readable' | 'writable'): Promise<void> {
  return new Promise((resolve, reject) => {
    port.poller.once(event, (error) => (error ? reject(error) : resolve()));
  });
}

function failure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && GONE.has(code)) Object.assign(error as object, { disconnect: true });
  return error;
}

/**
 * Reads and writes an open Unix serial port (or pseudo-terminal) on the event loop instead of
 * libuv's thread pool. serialport's own binding reads by trying `fs.read` in the pool, which on an
 * empty port fails EAGAIN (an exception), then waits for the poller and reads in the pool again: three
 * thread hops and a thrown error for every frame, and one more hop per write. Here a read waits for
 * the poller first and then reads the non-blocking descriptor at once; a write writes at once and
 * waits for the poller only when the port's buffer is full. Errors and their meaning (`canceled`,
 * `disconnect`) are serialport's. A port without a descriptor (Windows) is left as it is.
 */
export function useEventLoopReadsAndWrites(binding: unknown): boolean {
  if (!isUnixPortBinding(binding)) return false;
  const port = binding;
  port.read = async (buffer, offset, length) => {
    for (;;) {
      if (port.fd === null) throw closedError();
      await until(port, 'readable');
      if (port.fd === null) throw closedError();
      try {
        // Zero bytes (a pseudo-terminal whose peer is gone reads as EOF) is retried, as serialport does.
        const bytesRead = readSync(port.fd, buffer, offset, length, null);
        if (bytesRead > 0) return { bytesRead, buffer };
      } catch (error) {
        if (!NOT_NOW.has((error as NodeJS.ErrnoException).code ?? '')) throw failure(error);
      }
    }
  };
  const writeAll = async (buffer: Buffer): Promise<void> => {
    let offset = 0;
    while (offset < buffer.length) {
      if (port.fd === null) throw closedError();
      try {
        offset += writeSync(port.fd, buffer, offset, buffer.length - offset);
      } catch (error) {
        if (!NOT_NOW.has((error as NodeJS.ErrnoException).code ?? '')) throw failure(error);
        await until(port, 'writable');
      }
    }
  };
  port.write = (buffer) => {
    if (port.fd === null) return Promise.reject(closedError());
    // serialport's drain() awaits writeOperation.
    const operation = writeAll(buffer).finally(() => {
      if (port.writeOperation === operation) port.writeOperation = null;
    });
    port.writeOperation = operation;
    return operation;
  };
  return true;
}
