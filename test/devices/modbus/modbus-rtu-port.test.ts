import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { ModbusRtuPort } from '../../../devices/modbus/modbus-rtu-port.ts';
import { startPseudoTerminalPair } from '../../../devices/simulator/pseudo-terminal-pair.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A socat pair's two paths (removed after the test). */
async function startPair(): Promise<{ hostPath: string; devicePath: string }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-rtu-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const hostPath = path.join(folder, 'bus');
  const pair = await startPseudoTerminalPair({ hostPath, devicePath: `${hostPath}.device` });
  cleanups.push(() => pair.close());
  return pair;
}

function rtuPort(hostPath: string): ModbusRtuPort {
  return new ModbusRtuPort({
    path: hostPath,
    settings: { baud: 9600, parity: 'none', stopbits: 1 },
    watchPathMs: 1000,
  });
}

/** The RTU port on one end of a socat pair, and the raw other end a hostile peer writes to. */
async function openHostilePair(): Promise<{ port: ModbusRtuPort; peer: SerialPort }> {
  const pair = await startPair();
  const port = rtuPort(pair.hostPath);
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  cleanups.push(() => new Promise<void>((resolve) => port.close(resolve)));
  const peer = new SerialPort({ path: pair.devicePath, baudRate: 9600, autoOpen: false });
  await new Promise<void>((resolve, reject) => peer.open((error) => (error ? reject(error) : resolve())));
  cleanups.push(() => new Promise<void>((resolve) => peer.close(() => resolve())));
  return { port, peer };
}

describe('the Modbus RTU port against a peer that floods it', () => {
  it('never holds more than the longest RTU frame (256 bytes) while it waits, and still takes the reply after 64 KiB of noise', async () => {
    const { port, peer } = await openHostilePair();
    // What the port holds after each chunk it received (this listener runs after the port's own).
    let mostHeld = 0;
    (port as unknown as { serial: SerialPort }).serial.on('data', () => {
      mostHeld = Math.max(mostHeld, (port as unknown as { buffer: Buffer }).buffer.length);
    });
    const reply = new Promise<Buffer>((resolve) => port.once('data', resolve));

    // Read two holding registers of unit 1 from address 0 (CRC 0xC40B, worked out by hand, low byte first).
    port.write(Buffer.from([0x01, 0x03, 0x00, 0x00, 0x00, 0x02, 0xc4, 0x0b]));
    // 64 KiB of bytes that are never unit 1, then the 9-byte reply: unit, function, byte count, 4 data bytes, CRC.
    const expected = Buffer.from([0x01, 0x03, 0x04, 0x00, 0x2a, 0x00, 0x07, 0xaa, 0xbb]);
    peer.write(Buffer.concat([Buffer.alloc(65_536, 0xff), expected]));

    expect(await reply).toEqual(expected);
    expect(mostHeld).toBeGreaterThan(0);
    expect(mostHeld).toBeLessThanOrEqual(256);
  });
});

describe('the Modbus RTU port closed while it is still opening', () => {
  it('ends closed once the open completes, so the next port on that path can open it', async () => {
    const { hostPath } = await startPair();
    const port = rtuPort(hostPath);
    const opened = new Promise<Error | null>((resolve) => port.open(resolve));
    const closed = new Promise<void>((resolve) => port.close(resolve));
    await Promise.all([opened, closed]);
    expect(port.isOpen).toBe(false);

    const next = rtuPort(hostPath);
    await new Promise<void>((resolve, reject) => next.open((error) => (error ? reject(error) : resolve())));
    cleanups.push(() => new Promise<void>((resolve) => next.close(resolve)));
    expect(next.isOpen).toBe(true);
  });
});
