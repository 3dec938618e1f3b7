import { existsSync } from 'node:fs';
import { DeviceRegistry, type AttachOptions } from '../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { displayChannels } from '../../devices/tools/display-channels.ts';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { startInProcessDevices } from '../../devices/simulator/start-in-process-devices.ts';
import type { SimulatedKind } from '../../devices/simulator/device-catalog.ts';
import type { DeviceLayer } from './device-layer.ts';
import { findExecutable } from './find-executable.ts';
import { DevicePairing } from '../../devices/pairing/device-pairing.ts';
import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import { resolveDeviceProfile } from '../../devices/profiles/resolve-profile.ts';
import type { ModbusPlacement } from '../../devices/modbus/modbus-bus-settings.ts';

/** A device named on the command line: its port, and for a device that does not speak our protocol its profile (and Modbus unit). */
export interface DeviceToAttach {
  path: string;
  /** A line or Modbus profile, builtin name or file. */
  profile?: string;
  /** A Modbus unit's id and bus settings (overriding the profile's factory settings). */
  modbus?: Partial<ModbusPlacement> & Pick<ModbusPlacement, 'bus'>;
}

/** The simulated home of the demo: two lamps, a thermometer and a text display. */
export const DEMO_DEVICE_KINDS: readonly SimulatedKind[] = ['lamp', 'lamp', 'thermometer', 'display'];

/**
 * Attaches the devices a run was started with: `--sim` (behind socat pseudo-terminals and the real
 * serialport binding when socat is installed, else in-process) and each `--device PATH`. Devices
 * named on the command line are granted all their tools for the run: naming them is the consent.
 */
export async function attachDevices(options: {
  sim: boolean;
  simLatencyMs?: number;
  /** Devices named on the command line; `profile` for devices that speak plain lines or Modbus. */
  devices: readonly DeviceToAttach[];
  /** Paired devices are attached with their stored grants (offline ones too, until they appear). */
  pairingStore?: PairingStore;
  log: (line: string) => void;
  signal: AbortSignal;
  /** Events one device may send per second (the setting deviceEventsPerSecond). */
  eventsPerSecond?: number;
}): Promise<DeviceLayer> {
  const registry = new DeviceRegistry(
    options.eventsPerSecond !== undefined ? { eventsPerSecond: options.eventsPerSecond } : {},
  );
  const owners: (() => Promise<void>)[] = [];
  try {
    if (options.sim) {
      const latencyMs = options.simLatencyMs ?? 250;
      if (findExecutable('socat')) {
        const simulated = await startSimulatedDevices({ kinds: DEMO_DEVICE_KINDS, latencyMs });
        owners.push(() => simulated.close());
        for (const device of simulated.devices)
          await registry.attach(device.path, { grant: 'all', signal: options.signal });
      } else {
        options.log(
          'socat is not installed: the simulated devices run in-process (no serial port). Install socat to run them behind pseudo-terminals.',
        );
        const simulated = startInProcessDevices({ kinds: DEMO_DEVICE_KINDS, latencyMs });
        owners.push(() => simulated.close());
        for (const device of simulated.devices)
          await registry.attachConnector(device.connector, { grant: 'all', signal: options.signal });
      }
    }
    for (const device of options.devices) {
      if (!existsSync(device.path))
        throw new Error(
          `--device ${device.path}: no such port (is it plugged in? \`home-agent devices scan\` lists the ports it finds)`,
        );
      await registry.attach(device.path, { grant: 'all', signal: options.signal, ...attachmentOf(device) });
    }
    if (options.pairingStore) await new DevicePairing({ store: options.pairingStore, registry }).attachPaired();
  } catch (error) {
    await registry.dispose();
    for (const close of owners) await close();
    throw error;
  }
  // Report the first dropped frame of each kind per device (the counters keep counting in devices/list),
  // and what devices announce on their own (a door opening), so a person can see both in the log.
  const reported = new Set<string>();
  registry.onProblem((problem) => {
    if (problem.problem === 'connection') return;
    if (problem.problem === 'hello_refused' || problem.problem === 'event_flood') {
      // Once per reason: a refused device is asked again and again, a flood lasts.
      const key = `${problem.deviceId}:${problem.detail}`;
      if (!reported.has(key)) options.log(`${problem.deviceId}: ${problem.detail}`);
      reported.add(key);
      return;
    }
    const key = `${problem.deviceId}:${problem.problem}`;
    if (reported.has(key)) return;
    reported.add(key);
    options.log(
      `${problem.deviceId} sent a frame that was dropped (${problem.problem}: ${problem.detail}); further ones are only counted`,
    );
  });
  registry.onEvent((event) =>
    options.log(
      `${event.deviceId} reports ${event.event}${event.data === undefined ? '' : ` ${JSON.stringify(event.data)}`}`,
    ),
  );
  return {
    plugin: createDevicesPlugin(registry),
    onNotice: (listener) => {
      const stopChanges = registry.onChange(() => listener({ type: 'devices/changed' }));
      const stopEvents = registry.onEvent((event) =>
        listener({ type: 'device/event', deviceId: event.deviceId, event: event.event, data: event.data }),
      );
      return () => {
        stopChanges();
        stopEvents();
      };
    },
    displayChannels: () => displayChannels(registry),
    list: () =>
      registry.list().map((device) => ({
        id: device.id,
        alias: device.alias || device.id,
        kind: device.kind,
        path: device.path,
        online: device.online,
        trusted: device.trusted,
        tools: device.tools,
        frameProblems: frameProblemsOf(registry, device.id),
        ...(device.lastError ? { lastError: device.lastError } : {}),
        eventsDropped: device.eventsDropped,
      })),
    dispose: async () => {
      await registry.dispose();
      for (const close of owners) await close();
    },
  };
}

/** How a device named on the command line is reached: its profile resolved, and for Modbus its unit. */
function attachmentOf(device: DeviceToAttach): Pick<AttachOptions, 'profile' | 'modbus'> {
  if (device.profile === undefined) return {};
  const resolved = resolveDeviceProfile(device.profile);
  if (resolved.protocol === 'lines') {
    if (device.modbus)
      throw new Error(
        `--device ${device.path}: unit, baud, parity and stopbits apply to Modbus profiles; ${device.profile} speaks lines`,
      );
    return { profile: resolved.profile };
  }
  const unit = device.modbus?.unit;
  if (unit === undefined)
    throw new Error(
      `--device ${device.path},profile=${device.profile} needs unit=N (the device's Modbus unit id, 1–247)`,
    );
  return { modbus: { profile: resolved.profile, unit, bus: device.modbus?.bus ?? {} } };
}

function frameProblemsOf(
  registry: DeviceRegistry,
  id: string,
): { oversized: number; invalidJson: number; invalidFrame: number } {
  const stats = registry.get(id)?.session.stats;
  return {
    oversized: stats?.oversized ?? 0,
    invalidJson: stats?.invalidJson ?? 0,
    invalidFrame: stats?.invalidFrame ?? 0,
  };
}
