import { existsSync } from 'node:fs';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { startInProcessDevices } from '../../devices/simulator/start-in-process-devices.ts';
import type { SimulatedKind } from '../../devices/simulator/device-catalog.ts';
import type { DeviceLayer } from './device-layer.ts';
import { findExecutable } from './find-executable.ts';
import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import { resolveDeviceProfile } from '../../devices/ways-in/builtin-profile-formats.ts';
import type { WayInOptions } from '../../devices/links/way-in.ts';
import type { StandingApprovalStore } from '../store/standing-approval-store.ts';
import type { Settings } from '../contract/settings-table.ts';
import { createDeviceLayer, createDeviceRegistry } from './create-device-layer.ts';
import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import type { PromptDevicesMode } from '../../core/prompt/rooms-section.ts';

/** A device named on the command line: its port, for a device that does not speak our protocol its profile, and its way in's options. */
export interface DeviceToAttach {
  path: string;
  /** A profile, builtin name or file. */
  profile?: string;
  /** The options of its way in, checked (a unit id and bus settings overriding the profile's factory settings). */
  options?: WayInOptions;
}

/** The simulated home of the demo: two lamps, a thermometer and a text display. */
export const DEMO_DEVICE_KINDS: readonly SimulatedKind[] = ['lamp', 'lamp', 'thermometer', 'display'];

/**
 * Attaches the devices a run was started with (attachCommandLineDevices: `--sim`, each `--device
 * PATH`, granted all their tools for the run). Then the paired devices of the store, kept true to
 * it for the run's whole life (see createDeviceLayer).
 */
export async function attachDevices(options: {
  sim: boolean;
  simLatencyMs?: number;
  /** Devices named on the command line; `profile` and `options` for devices that do not speak our protocol. */
  devices: readonly DeviceToAttach[];
  /** Paired devices are attached with their stored grants (offline ones too, until they appear). */
  pairingStore?: PairingStore;
  /** The standing approvals of the data folder, listed with each device. */
  standingApprovals?: StandingApprovalStore;
  /** SQLite's data_version of the store's connection: how changes made elsewhere are noticed. */
  dataVersion?: () => number;
  /** How often to look for changes made elsewhere while nothing asks (default 200 ms). */
  storePollMs?: number;
  log: (line: string) => void;
  signal: AbortSignal;
  /** Events one device may send per second (the setting deviceEventsPerSecond). */
  eventsPerSecond?: number;
  /** The run's settings: how devices are reached besides their ports (a broker). */
  settings?: Settings;
  /** How the prompt lists the devices now (the setting promptDevices, read at every turn). */
  promptDevices?: () => PromptDevicesMode;
  /** The ways in's secrets the front end keeps (the desktop app's keychain), by declared name; absent: none. */
  secret?: (name: string) => string | undefined;
}): Promise<DeviceLayer> {
  const registry = createDeviceRegistry({
    ...(options.eventsPerSecond !== undefined ? { eventsPerSecond: options.eventsPerSecond } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.secret ? { secret: options.secret } : {}),
  });
  const close = await attachCommandLineDevices(registry, options);
  return createDeviceLayer({
    registry,
    close,
    ...(options.pairingStore ? { pairingStore: options.pairingStore } : {}),
    ...(options.standingApprovals ? { standingApprovals: options.standingApprovals } : {}),
    ...(options.dataVersion ? { dataVersion: options.dataVersion } : {}),
    ...(options.storePollMs !== undefined ? { storePollMs: options.storePollMs } : {}),
    ...(options.promptDevices ? { promptDevices: options.promptDevices } : {}),
    log: options.log,
  });
}

/**
 * Attaches to `registry` the devices a command line names: `--sim` (behind socat pseudo-terminals and
 * the real serialport binding when socat is installed, else in-process) and each `--device PATH`, all
 * granted every tool (naming them is the consent). Returns what closes the simulators; on failure
 * disposes the registry, closes what it started and rethrows.
 */
export async function attachCommandLineDevices(
  registry: DeviceRegistry,
  options: {
    sim: boolean;
    simLatencyMs?: number;
    devices: readonly DeviceToAttach[];
    log: (line: string) => void;
    signal: AbortSignal;
  },
): Promise<() => Promise<void>> {
  const owners: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const owner of owners) await owner();
  };
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
      await registry.attach(device.path, {
        grant: 'all',
        signal: options.signal,
        ...(device.profile !== undefined ? { profile: resolveDeviceProfile(device.profile) } : {}),
        wayInOptions: device.options ?? {},
      });
    }
  } catch (error) {
    await registry.dispose();
    await close();
    throw error;
  }
  return close;
}
