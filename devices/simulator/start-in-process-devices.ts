import { createMemoryLinePair } from '../transport/memory-line-pair.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import { createFirmwares } from './device-catalog.ts';
import { profileConnector } from '../profiles/profile-connector.ts';
import type { SimulatedKind } from './device-catalog.ts';
import { findSimulatedDevice, simulatedDevice, type SimulatedDevice } from './simulated-device.ts';

/** One simulated device reached in-process (`path` is a label, `sim:lamp-1`); hand `connector` to the device registry. */
export interface InProcessDevice extends SimulatedDevice {
  connector: TransportConnector;
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
    const device = simulatedDevice(firmware, `sim:${id}`);
    return { ...device, connector: device.profile ? profileConnector(connector, device.profile) : connector };
  });
  const find = (id: string): InProcessDevice => findSimulatedDevice(devices, id);
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
