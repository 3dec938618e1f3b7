import { createMemoryLinePair } from '../transport/memory-line-pair.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import { createFirmwares, profileForKind } from './device-catalog.ts';
import { profileConnector } from '../profiles/profile-connector.ts';
import type { LineProfile } from '../profiles/line-profile-schema.ts';
import type { SimulatedKind } from './device-catalog.ts';
import type { SimulatedFirmware } from './simulated-firmware.ts';

/** One simulated device reached in-process; hand `connector` to the device registry. */
export interface InProcessDevice {
  id: string;
  kind: SimulatedKind;
  /** A label shaped like a path, for listings (`sim:lamp-1`). */
  path: string;
  connector: TransportConnector;
  firmware: SimulatedFirmware;
  /** Set for devices that speak text lines: attach with `{ profile }` so the host can talk to them. */
  profile?: LineProfile;
}

/** The owner of in-process simulated devices. */
export interface InProcessDevices {
  devices: InProcessDevice[];
  device(id: string): InProcessDevice;
  unplug(id: string): Promise<void>;
  replug(id: string): void;
  close(): Promise<void>;
}

/**
 * Simulated devices joined to the app by in-process line pairs: no socat, no serial port. For the
 * out-of-the-box demo on machines without socat; tests use `startSimulatedDevices`.
 */
export function startInProcessDevices(options: {
  kinds: readonly SimulatedKind[];
  latencyMs?: number;
}): InProcessDevices {
  const firmwares = createFirmwares({ kinds: options.kinds, latencyMs: options.latencyMs ?? 250 });
  const plugged = new Map<string, boolean>();
  const waiters = new Map<string, Set<() => void>>();
  let closed = false;
  const devices: InProcessDevice[] = firmwares.map((firmware) => {
    const id = firmware.identity.id;
    plugged.set(id, true);
    waiters.set(id, new Set());
    const connector: TransportConnector = {
      label: `sim:${id}`,
      waitUntilPresent(signal) {
        if (plugged.get(id) === true) return Promise.resolve();
        return new Promise((resolve, reject) => {
          const onAbort = (): void => {
            waiters.get(id)?.delete(ready);
            reject(signal.reason);
          };
          const ready = (): void => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          };
          waiters.get(id)?.add(ready);
          signal.addEventListener('abort', onAbort, { once: true });
        });
      },
      async open(handlers, signal) {
        signal.throwIfAborted();
        if (closed || plugged.get(id) !== true) throw new Error(`sim:${id} is unplugged`);
        const [deviceEnd, hostEnd] = createMemoryLinePair({ label: `sim:${id}` });
        await firmware.connect((deviceHandlers) => deviceEnd.open(deviceHandlers));
        return hostEnd.open(handlers);
      },
    };
    const kind = firmware.identity.kind as SimulatedKind;
    const profile = profileForKind(kind);
    return {
      id,
      kind,
      path: `sim:${id}`,
      connector: profile ? profileConnector(connector, profile) : connector,
      firmware,
      ...(profile ? { profile } : {}),
    };
  });
  const find = (id: string): InProcessDevice => {
    const device = devices.find((candidate) => candidate.id === id);
    if (device === undefined) throw new Error(`no simulated device ${id}`);
    return device;
  };
  return {
    devices,
    device: find,
    async unplug(id) {
      plugged.set(id, false);
      await find(id).firmware.disconnect();
    },
    replug(id) {
      find(id);
      plugged.set(id, true);
      const ready = waiters.get(id);
      for (const resolve of [...(ready ?? [])]) resolve();
      ready?.clear();
    },
    async close() {
      closed = true;
      for (const id of plugged.keys()) plugged.set(id, false);
      await Promise.all(devices.map((device) => device.firmware.disconnect()));
    },
  };
}
