import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPseudoTerminalPair } from '../../../devices/simulator/pseudo-terminal-pair.ts';
import type { LineTransport, TransportClose } from '../../../devices/transport/line-transport.ts';
import { openSerialLineTransport } from '../../../devices/transport/serial-line-transport.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface End {
  transport: LineTransport;
  nextLine(): Promise<string>;
  closed: Promise<TransportClose>;
}

/** Both ends of a socat pseudo-terminal pair, each opened with the real serialport binding. */
async function openPair(maxFrameBytes: number): Promise<[End, End, () => Promise<void>]> {
  const folder = mkdtempSync(join(tmpdir(), 'fast-path-'));
  const owner = new AbortController();
  const pair = await startPseudoTerminalPair({
    hostPath: join(folder, 'host'),
    devicePath: join(folder, 'device'),
    signal: owner.signal,
  });
  const openEnd = async (path: string): Promise<End> => {
    const lines: string[] = [];
    let wake: (() => void) | undefined;
    let onClose!: (reason: TransportClose) => void;
    const closed = new Promise<TransportClose>((resolve) => (onClose = resolve));
    const transport = await openSerialLineTransport({
      path,
      maxFrameBytes,
      signal: owner.signal,
      handlers: {
        onLine: (line) => {
          lines.push(line);
          wake?.();
        },
        onOversized: () => undefined,
        onClose,
      },
    });
    const nextLine = async (): Promise<string> => {
      while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return lines.shift()!;
    };
    return { transport, nextLine, closed };
  };
  const host = await openEnd(pair.hostPath);
  const device = await openEnd(pair.devicePath);
  cleanups.push(async () => {
    await host.transport.close();
    await device.transport.close();
    await pair.close();
    rmSync(folder, { recursive: true, force: true });
  });
  return [host, device, () => pair.close()];
}

/**
 * Occupies every thread of libuv's pool: opening a FIFO for reading blocks its thread until a
 * writer opens it. Returns the function that releases them.
 */
async function occupyThreadPool(): Promise<() => Promise<void>> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const folder = mkdtempSync(join(tmpdir(), 'busy-pool-'));
  const fifos = Array.from({ length: threads }, (_, index) => join(folder, `fifo-${index}`));
  execFileSync('mkfifo', fifos);
  const blocked = fifos.map((fifo) => open(fifo, 'r'));
  return async () => {
    // Writers opened without the pool (a blocking open would wait for a reader, which is there).
    for (const fifo of fifos) execFileSync('sh', ['-c', `: > '${fifo}'`]);
    for (const handle of await Promise.all(blocked)) await handle.close();
    rmSync(folder, { recursive: true, force: true });
  };
}

describe('serial ports read and write on the event loop', () => {
  it('round-trips a frame while every thread of the pool is busy', async () => {
    const [host, device] = await openPair(1024);
    const release = await occupyThreadPool();
    cleanups.push(release);
    await host.transport.write('{"id":1,"op":"hello"}\n');
    expect(await device.nextLine()).toBe('{"id":1,"op":"hello"}');
    await device.transport.write('{"id":1,"ok":true}\n');
    expect(await host.nextLine()).toBe('{"id":1,"ok":true}');
  });

  it('writes a frame larger than the port buffer whole, waiting for room when it is full', async () => {
    const [host, device] = await openPair(300_000);
    const line = JSON.stringify({ id: 2, text: 'x'.repeat(200_000) });
    await host.transport.write(`${line}\n`);
    expect(await device.nextLine()).toBe(line);
  });

  it('still reports the port lost when the other end goes away', async () => {
    const [host, , unplug] = await openPair(1024);
    await unplug();
    expect((await host.closed).disconnected).toBe(true);
  });
});
