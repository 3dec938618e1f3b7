import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { startPseudoTerminalPair } from '../../devices/simulator/pseudo-terminal-pair.ts';

/**
 * Modbus's CRC-16 of `bytes` (initial 0xFFFF, reflected polynomial 0xA001), written from the
 * specification (Modbus over serial line v1.02, 6.2.2) for tests, independently of modbus-serial.
 */
export function crc16(bytes: readonly number[]): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** `bytes` with their CRC appended, low byte first, as RTU frames carry it. */
export function withCrc(bytes: readonly number[]): Buffer {
  const crc = crc16(bytes);
  return Buffer.from([...bytes, crc & 0xff, crc >>> 8]);
}

/** A Modbus RTU peer on a socat pair that answers each request with whatever `respond` makes of it. */
export interface HostileModbusPeer {
  /** The path the host opens. */
  path: string;
  /** Every request frame received (8 bytes each: functions 1–6). */
  requests: Buffer[];
  close(): Promise<void>;
}

/** Starts the peer; `respond` gets each 8-byte request and returns the bytes to send back (none: silence). */
export async function startHostileModbusPeer(
  respond: (request: Buffer) => Buffer | undefined,
): Promise<HostileModbusPeer> {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-modbus-peer-'));
  const hostPath = path.join(folder, 'bus');
  const pair = await startPseudoTerminalPair({ hostPath, devicePath: `${hostPath}.peer` });
  const peer = new SerialPort({ path: pair.devicePath, baudRate: 9600, autoOpen: false });
  await new Promise<void>((resolve, reject) => peer.open((error) => (error ? reject(error) : resolve())));
  const requests: Buffer[] = [];
  let pending = Buffer.alloc(0);
  peer.on('data', (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    while (pending.length >= 8) {
      const request = pending.subarray(0, 8);
      pending = pending.subarray(8);
      requests.push(request);
      const reply = respond(request);
      if (reply) peer.write(reply);
    }
  });
  // The host closing its end makes reads of this one fail: that is the end of the test, not an error.
  peer.on('error', () => undefined);
  return {
    path: hostPath,
    requests,
    close: async () => {
      if (peer.isOpen) await new Promise<void>((resolve) => peer.close(() => resolve()));
      await pair.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
