import { createMemoryLinePair } from '../../devices/transport/memory-line-pair.ts';
import type { LineTransport, TransportConnector } from '../../devices/transport/line-transport.ts';

/** A device whose every answer the test writes by hand, on an in-process line pair. */
export interface ScriptedLineDevice {
  /** Hand this to a DeviceSession. Each open makes a new pair (a new connection). */
  connector: TransportConnector;
  /** How many times the host opened the port. */
  readonly opens: number;
  /** Every line the device received, in order, across connections. */
  readonly received: string[];
  /** Resolves with the n-th line received (0-based), already received or still to come. */
  line(index: number): Promise<string>;
  /** Writes raw text to the host on the current connection. */
  send(text: string): Promise<void>;
}

/** Starts a scripted device; nothing answers unless the test calls `send`. */
export function scriptedLineDevice(): ScriptedLineDevice {
  const received: string[] = [];
  const waiters = new Map<number, (line: string) => void>();
  let device: LineTransport | undefined;
  let opens = 0;
  const connector: TransportConnector = {
    label: 'scripted',
    waitUntilPresent: () => Promise.resolve(),
    open(handlers) {
      opens += 1;
      const [deviceEnd, hostEnd] = createMemoryLinePair({ label: 'scripted' });
      device = deviceEnd.open({
        onLine(line) {
          received.push(line);
          waiters.get(received.length - 1)?.(line);
        },
        onOversized: () => undefined,
        onClose: () => undefined,
      });
      return Promise.resolve(hostEnd.open(handlers));
    },
  };
  return {
    connector,
    get opens() {
      return opens;
    },
    received,
    line(index) {
      const line = received[index];
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve) => waiters.set(index, resolve));
    },
    send: (text) => device?.write(text) ?? Promise.reject(new Error('the host has not opened the port')),
  };
}
