import { MAX_FRAME_BYTES } from '../protocol/frame-schema.ts';
import { LineFramer } from './line-framer.ts';
import type { LineTransport, LineTransportHandlers } from './line-transport.ts';

/** One end of an in-process link, opened once with its handlers. */
export interface MemoryLineEnd {
  open(handlers: LineTransportHandlers): LineTransport;
}

/**
 * A connected pair of in-process line transports (no socat, no serial port) for the demo when
 * socat is missing. Bytes cross asynchronously and through the same framer as a real port;
 * closing either end closes the other as `disconnected`.
 */
export function createMemoryLinePair(options: {
  label: string;
  maxFrameBytes?: number;
}): [MemoryLineEnd, MemoryLineEnd] {
  const maxBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  const ends: MemoryEnd[] = [];
  const makeEnd = (side: 0 | 1): MemoryLineEnd => ({
    open(handlers) {
      const end = new MemoryEnd(`${options.label}#${side}`, handlers, maxBytes, () => ends[1 - side]);
      ends[side] = end;
      return end;
    },
  });
  return [makeEnd(0), makeEnd(1)];
}

class MemoryEnd implements LineTransport {
  private open = true;
  private readonly framer: LineFramer;

  constructor(
    readonly label: string,
    private readonly handlers: LineTransportHandlers,
    maxBytes: number,
    private readonly peer: () => MemoryEnd | undefined,
  ) {
    this.framer = new LineFramer({ maxBytes, onLine: handlers.onLine, onOversized: handlers.onOversized });
  }

  get isOpen(): boolean {
    return this.open;
  }

  receive(data: Buffer): void {
    if (this.open) this.framer.push(data);
  }

  write(line: string): Promise<void> {
    if (!this.open) return Promise.reject(new Error(`${this.label} is closed`));
    const data = Buffer.from(line, 'utf8');
    const peer = this.peer();
    // Nobody reads an end that is not open yet (open the firmware end first), as with an unread port.
    if (peer !== undefined) setImmediate(() => peer.receive(data));
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.shut(false);
    const peer = this.peer();
    if (peer !== undefined) setImmediate(() => peer.shut(true));
    return Promise.resolve();
  }

  shut(disconnected: boolean): void {
    if (!this.open) return;
    this.open = false;
    this.handlers.onClose({ disconnected });
  }
}
