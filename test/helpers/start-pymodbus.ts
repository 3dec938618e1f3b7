import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPseudoTerminalPair, type PseudoTerminalPair } from '../../devices/simulator/pseudo-terminal-pair.ts';

/** Debian's own interpreter: the first `python3` on PATH may be another one without pymodbus. */
export const DEBIAN_PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(import.meta.dirname, 'pymodbus-server.py');

/** Why the Modbus tests cannot run on this machine (naming the apt-get line), or undefined when they can. */
export function pymodbusMissing(): string | undefined {
  if (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0) return 'socat is missing: apt-get install socat';
  const probe = spawnSync(DEBIAN_PYTHON, ['-c', 'import pymodbus, serial_asyncio'], { stdio: 'ignore' });
  if (probe.status !== 0)
    return `pymodbus is missing from ${DEBIAN_PYTHON}: apt-get install python3-pymodbus python3-serial-asyncio`;
  return undefined;
}

/** A register value as pymodbus' own payload builder encodes it (see pymodbus-server.py). */
export type RegisterSpec =
  | number
  | ({ byteorder?: 'big' | 'little'; wordorder?: 'big' | 'little' } & (
      { float32: number } | { int32: number } | { uint32: number } | { int16: number } | { uint16: number }
    ));

/** The four tables of one unit; addresses not given do not exist (reading them answers exception 2). */
export interface UnitTables {
  ir?: Record<number, RegisterSpec>;
  hr?: Record<number, RegisterSpec>;
  co?: Record<number, boolean>;
  di?: Record<number, boolean>;
}

/** One bus the peer serves: serial settings (pymodbus spelling) and its units. */
export interface BusSpec {
  baudrate?: number;
  parity?: 'N' | 'E' | 'O';
  stopbits?: 1 | 2;
  units: Record<number, UnitTables>;
}

/** One line of the peer's log: what came over the wire and what went back, in the server's own order. */
export interface PeerLogEntry {
  event: 'ready' | 'request' | 'reply' | 'barrier-timeout' | 'done';
  bus?: number;
  unit?: number;
  function?: number;
  address?: number | null;
  count?: number | null;
  exception?: boolean;
  id?: number;
  values?: number[];
  error?: string;
  t: number;
}

/** pymodbus serving buses on pseudo-terminal pairs; the host opens `paths[bus]`. `close()` ends it all. */
export interface PymodbusPeer {
  readonly paths: string[];
  readonly log: PeerLogEntry[];
  /** Resolves with the first log entry from `from` on that matches (already logged ones count). */
  waitFor(match: (entry: PeerLogEntry) => boolean, from?: number): Promise<PeerLogEntry>;
  /** Sends one command (see pymodbus-server.py) and resolves with its `done` line. */
  command(command: Record<string, unknown>): Promise<PeerLogEntry>;
  /**
   * Resolves once the log holds every line the server wrote so far: the log reaches the test over a
   * pipe and can lag the wire, so a test reads it after a call only once this resolves.
   */
  sync(): Promise<void>;
  /** Takes the bus's port away: the host's path vanishes, as when a USB adapter is pulled. */
  unplug(bus: number): Promise<void>;
  /** Brings the port back at the same path and has the server reopen its end. */
  replug(bus: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts socat pairs and `/usr/bin/python3 pymodbus-server.py`; resolves once every port is open. */
export async function startPymodbus(options: { buses: BusSpec[] }): Promise<PymodbusPeer> {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-modbus-'));
  const pairs: (PseudoTerminalPair | undefined)[] = [];
  const linkOf = (bus: number, side: 'host' | 'server'): string => path.join(folder, `bus${bus}-${side}`);
  const openPair = (bus: number): Promise<PseudoTerminalPair> =>
    startPseudoTerminalPair({ hostPath: linkOf(bus, 'host'), devicePath: linkOf(bus, 'server') });
  try {
    for (let bus = 0; bus < options.buses.length; bus += 1) pairs.push(await openPair(bus));
  } catch (error) {
    for (const pair of pairs) await pair?.close();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const config = {
    buses: options.buses.map((bus, index) => ({ ...bus, port: linkOf(index, 'server') })),
  };
  const child = spawn(DEBIAN_PYTHON, [SCRIPT, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const log: PeerLogEntry[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let buffer = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-8000)));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    buffer += text;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') log.push(JSON.parse(line) as PeerLogEntry);
    }
    for (const wake of [...waiters]) wake();
  });

  const waitFor = (match: (entry: PeerLogEntry) => boolean, from = 0): Promise<PeerLogEntry> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = log.slice(from).find(match);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        if (waiters.delete(check)) reject(new Error(`pymodbus exited: ${stderr.trim().slice(-2000)}`));
      });
    });
  let nextId = 1;
  const command = (body: Record<string, unknown>): Promise<PeerLogEntry> => {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ ...body, id })}\n`);
    return waitFor((entry) => entry.event === 'done' && entry.id === id);
  };
  const close = async (): Promise<void> => {
    child.stdin.end();
    await exited;
    for (const pair of pairs) await pair?.close();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitFor((entry) => entry.event === 'ready');
  } catch (error) {
    await close();
    throw error;
  }
  return {
    paths: options.buses.map((_bus, index) => linkOf(index, 'host')),
    log,
    waitFor,
    command,
    sync: async () => void (await command({ op: 'sync' })),
    async unplug(bus) {
      await pairs[bus]?.close();
      pairs[bus] = undefined;
    },
    async replug(bus) {
      pairs[bus] = await openPair(bus);
      await command({ op: 'reopen', bus });
    },
    close,
  };
}
