import { afterEach, describe, expect, it } from 'vitest';
import { DeviceSession } from '../../../devices/session/device-session.ts';
import type {
  LineTransport,
  LineTransportHandlers,
  TransportConnector,
} from '../../../devices/transport/line-transport.ts';

const sessions: DeviceSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.dispose();
});

/**
 * A port that goes quiet and closes the way serialport does: `isOpen` turns false at once, and the
 * close is reported a moment later (its `close` event is asynchronous).
 */
function closingPort(): {
  connector: TransportConnector;
  closeSoon(): void;
  handlersOpened(): Promise<void>;
  lookedForAgain(): Promise<void>;
} {
  let handlers: LineTransportHandlers | undefined;
  let lookedAgain!: () => void;
  const lookedForAgain = new Promise<void>((resolve) => (lookedAgain = resolve));
  let open = false;
  let opened!: () => void;
  const openedOnce = new Promise<void>((resolve) => (opened = resolve));
  const transport: LineTransport = {
    label: 'closing-port',
    get isOpen() {
      return open;
    },
    write: async () => {
      if (!open) throw new Error('closing-port is closed');
    },
    close: async () => {
      open = false;
    },
  };
  return {
    connector: {
      label: 'closing-port',
      // Present once only: after the close the session waits for it to come back, as for an unplug.
      waitUntilPresent: (signal) => {
        if (handlers === undefined) return Promise.resolve();
        lookedAgain();
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
      },
      open: async (given) => {
        handlers = given;
        open = true;
        opened();
        return transport;
      },
    },
    closeSoon: () => {
      open = false;
      setTimeout(() => handlers?.onClose({ disconnected: true, detail: 'unplugged' }), 50);
    },
    handlersOpened: () => openedOnce,
    lookedForAgain: () => lookedForAgain,
  };
}

describe('a device session whose port is closing', () => {
  it('stops asking hello on a port that reports itself closed, and hears the close', async () => {
    const port = closingPort();
    const session = new DeviceSession({ connector: port.connector, helloTimeoutMs: 30, reconnectIntervalMs: 10 });
    sessions.push(session);
    const problems: string[] = [];
    session.onProblem((problem) => problems.push(problem.detail));
    session.start();
    await port.handlersOpened();
    // The device never answers; the port closes while a hello is unanswered.
    port.closeSoon();
    // The close arrives only if the session yields: then it looks for the port again, as after an
    // unplug. A session spinning on the closed port (hello after hello) never gets there, and hangs.
    await port.lookedForAgain();
    expect(session.status).toBe('connecting');
    expect(problems.length).toBeLessThan(20);
  });
});
