import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSerialLineTransport } from '../transport/serial-line-transport.ts';
import { createFirmwares, defaultSimulatedNames } from './device-catalog.ts';
import type { SimulatedKind } from './device-catalog.ts';
import { startPseudoTerminalPair } from './pseudo-terminal-pair.ts';
import type { PseudoTerminalPair } from './pseudo-terminal-pair.ts';
import { findSimulatedDevice, simulatedDevice, type SimulatedDevice } from './simulated-device.ts';

/** The owner of the simulated devices: their socat processes, ports and temp folder. */
export interface SimulatedDevices {
  devices: SimulatedDevice[];
  device(id: string): SimulatedDevice;
  /** Kills the device's socat: both ends see the port vanish, as when a USB cable is pulled. */
  unplug(id: string): Promise<void>;
  /** Starts a new socat on the same link paths and reconnects the firmware. */
  replug(id: string): Promise<void>;
  close(): Promise<void>;
}

/** Options of `startSimulatedDevices`. */
export interface StartSimulatedDevicesOptions {
  kinds: readonly SimulatedKind[];
  /** Per-call latency of every device (default 250 ms). */
  latencyMs?: number;
  /** Aborting closes everything. */
  signal?: AbortSignal;
  /**
   * The folder for the ports (kept on close; only our links go): a fixed place, so a device that
   * comes back after a restart is at the same path. Default: a new temp folder, removed on close.
   */
  directory?: string;
  /** The ids the devices announce, one per kind in order (default: their port names). */
  ids?: readonly string[];
  /** The names of the ports in the folder, one per kind in order (default `lamp-1`, `lamp-2`, …). */
  portNames?: readonly string[];
  socatPath?: string;
}

/**
 * Starts one simulated device per pseudo-terminal pair (socat); the firmware holds one end with
 * the real serialport binding, `path` is the other. Ports are named `<kind>-<n>` in order unless
 * `portNames` gives others, and devices take their port's name as id unless `ids` gives others: so
 * another id can come back at the same path. A link left at a port's path (a killed simulator's) is replaced.
 */
export async function startSimulatedDevices(options: StartSimulatedDevicesOptions): Promise<SimulatedDevices> {
  const ownFolder = options.directory === undefined;
  const names = options.portNames ?? defaultSimulatedNames(options.kinds);
  if (names.length !== options.kinds.length)
    throw new Error(`${names.length} port names for ${options.kinds.length} devices: give one name per device`);
  const firmwares = createFirmwares({
    kinds: options.kinds,
    latencyMs: options.latencyMs ?? 250,
    ids: options.ids ?? names,
  });
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'home-agent-sim-')));
  if (!ownFolder) await mkdir(directory, { recursive: true });
  // A folder given with --dir belongs to the person: only our own temp folder is swept.
  const sweeper = ownFolder ? sweepWhenOwnerDies(directory) : undefined;
  const pairs = new Map<string, PseudoTerminalPair>();
  const owner = new AbortController();
  const devices = firmwares.map((firmware, index) => simulatedDevice(firmware, join(directory, names[index]!)));
  const find = (id: string): SimulatedDevice => findSimulatedDevice(devices, id);
  const plug = async (device: SimulatedDevice): Promise<void> => {
    // A link a killed simulator left here points at a pseudo-terminal that is gone (or another's): ours replaces it.
    await Promise.all([device.path, `${device.path}.device`].map((link) => rm(link, { force: true })));
    const pair = await startPseudoTerminalPair({
      hostPath: device.path,
      devicePath: `${device.path}.device`,
      socatPath: options.socatPath,
      signal: owner.signal,
    });
    pairs.set(device.id, pair);
    await device.firmware.connect((handlers) =>
      openSerialLineTransport({ path: pair.devicePath, handlers, signal: owner.signal }),
    );
  };
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      owner.abort();
      options.signal?.removeEventListener('abort', onAbort);
      await Promise.all(devices.map((device) => device.firmware.disconnect()));
      await Promise.all([...pairs.values()].map((pair) => pair.close()));
      pairs.clear();
      if (ownFolder) await rm(directory, { recursive: true, force: true });
      else
        await Promise.all(
          devices.flatMap((device) => [device.path, `${device.path}.device`].map((link) => rm(link, { force: true }))),
        );
      await sweeper?.close();
    })();
    return closing;
  };
  const onAbort = (): void => void close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    options.signal?.throwIfAborted();
    await Promise.all(devices.map(plug));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    devices,
    device: find,
    async unplug(id) {
      const pair = pairs.get(id);
      pairs.delete(id);
      await pair?.close();
    },
    async replug(id) {
      const device = find(id);
      await pairs.get(id)?.close();
      await plug(device);
    },
    close,
  };
}

/**
 * A small `sh` that removes `directory` once our pipe to it closes: when this process exits or is
 * killed (even by SIGKILL) the folder goes with it. It ignores the terminal's signals so a Ctrl-C
 * to the process group cannot take it down before we do.
 */
function sweepWhenOwnerDies(directory: string): { close(): Promise<void> } {
  const child = spawn('sh', ['-c', 'trap "" INT TERM HUP; read -r _; rm -rf -- "$0"', directory], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // Without sh the folder is still removed by close(); only a killed process would leave it.
    child.once('error', () => resolve());
  });
  // Writing to a sweeper that is gone must not crash the simulator: its job is then done or moot.
  child.stdin.on('error', () => {});
  return {
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
