import { parseDeviceFrame } from '../../../devices/protocol/parse-device-frame.ts';
import type { EventFrame, ResponseFrame } from '../../../devices/protocol/frame-schema.ts';
import { openSerialLineTransport } from '../../../devices/transport/serial-line-transport.ts';
import type { LineTransport } from '../../../devices/transport/line-transport.ts';

/** A bare client of the serial protocol: writes lines as given, reads the device's frames in order. */
export interface RawLineClient {
  /** Writes `line` (a newline is added) and resolves with the next response frame (rejects after 10 s without one). */
  request(line: string): Promise<ResponseFrame>;
  /** Writes raw text, answered or not. */
  write(text: string): Promise<void>;
  /** Events the device sent, in order. */
  readonly events: EventFrame[];
  /** Lines that were neither a response nor an event. */
  readonly invalid: string[];
  /** The next response frame, or undefined when none comes within `timeoutMs`. */
  nextResponse(timeoutMs: number): Promise<ResponseFrame | undefined>;
  close(): Promise<void>;
}

/** Opens `path` with the real serialport binding and speaks raw lines on it (no session, no hello). */
export async function openRawLineClient(path: string): Promise<RawLineClient> {
  const responses: ResponseFrame[] = [];
  const events: EventFrame[] = [];
  const invalid: string[] = [];
  let wake: (() => void) | undefined;
  const lifetime = new AbortController();
  const transport: LineTransport = await openSerialLineTransport({
    path,
    signal: lifetime.signal,
    handlers: {
      onLine(line) {
        const parsed = parseDeviceFrame(line);
        if (parsed.kind === 'response') responses.push(parsed.frame);
        else if (parsed.kind === 'event') events.push(parsed.frame);
        else invalid.push(line);
        wake?.();
      },
      onOversized: (bytes) => invalid.push(`(${bytes} bytes)`),
      onClose: () => wake?.(),
    },
  });
  const nextResponse = async (line: string): Promise<ResponseFrame> => {
    // A safety net only: a device that never answers fails the test instead of hanging it.
    const deadline = AbortSignal.timeout(10_000);
    while (responses.length === 0) {
      if (!transport.isOpen) throw new Error(`${path} closed while a response was awaited`);
      if (deadline.aborted) throw new Error(`no answer from ${path} to ${line.slice(0, 120)}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        deadline.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return responses.shift()!;
  };
  return {
    async request(line) {
      await transport.write(`${line}\n`);
      return nextResponse(line);
    },
    write: (text) => transport.write(text),
    events,
    invalid,
    async nextResponse(timeoutMs) {
      const deadline = AbortSignal.timeout(timeoutMs);
      while (responses.length === 0) {
        if (!transport.isOpen || deadline.aborted) return undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          deadline.addEventListener('abort', () => resolve(), { once: true });
        });
      }
      return responses.shift();
    },
    async close() {
      lifetime.abort();
      await transport.close();
    },
  };
}
