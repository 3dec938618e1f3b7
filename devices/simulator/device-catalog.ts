import {
  createDisplayModel,
  createDoorSensorModel,
  createLampModel,
  createLockModel,
  createThermometerModel,
} from './device-models.ts';
import { AT_RELAY_BOARD_PROFILE } from '../profiles/at-relay-board-profile.ts';
import type { LineProfile } from '../profiles/line-profile-schema.ts';
import type { FirmwareDialect } from './firmware-dialect.ts';
import { createAtRelayDialect, createRelayBoardModel } from './relay-board-model.ts';
import type { SimulatedDeviceModel } from './simulated-device-model.ts';
import { SimulatedFirmware } from './simulated-firmware.ts';

/** The device kinds the simulator can play. */
export const SIMULATED_KINDS = ['lamp', 'thermometer', 'display', 'door_sensor', 'relay', 'lock'] as const;
export type SimulatedKind = (typeof SIMULATED_KINDS)[number];

const factories: Record<SimulatedKind, () => SimulatedDeviceModel> = {
  lamp: createLampModel,
  thermometer: createThermometerModel,
  display: createDisplayModel,
  door_sensor: createDoorSensorModel,
  relay: createRelayBoardModel,
  lock: createLockModel,
};

/** Kinds that speak text lines instead of JSON, and the line profile the host needs to reach them. */
const lineKinds: Partial<Record<SimulatedKind, { profile: LineProfile; dialect: () => FirmwareDialect }>> = {
  relay: { profile: AT_RELAY_BOARD_PROFILE, dialect: createAtRelayDialect },
};

/** The line profile a simulated kind needs on the host side, if it does not speak JSON. */
export function profileForKind(kind: SimulatedKind): LineProfile | undefined {
  return lineKinds[kind]?.profile;
}

/** Whether a string names a simulated kind. */
export function isSimulatedKind(kind: string): kind is SimulatedKind {
  return (SIMULATED_KINDS as readonly string[]).includes(kind);
}

/** The default names of simulated devices, numbered per kind in order: lamp-1, lamp-2, thermometer-1. */
export function defaultSimulatedNames(kinds: readonly SimulatedKind[]): string[] {
  const counts = new Map<string, number>();
  return kinds.map((kind) => {
    const count = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, count);
    return `${kind}-${count}`;
  });
}

/**
 * Builds one firmware per kind, with deterministic ids (`defaultSimulatedNames`) unless `ids` gives
 * them (one per kind, in order: a device that comes back as another one).
 */
export function createFirmwares(options: {
  kinds: readonly SimulatedKind[];
  latencyMs: number;
  ids?: readonly string[];
}): SimulatedFirmware[] {
  const names = defaultSimulatedNames(options.kinds);
  if (options.ids !== undefined && options.ids.length !== options.kinds.length)
    throw new Error(`${options.ids.length} ids for ${options.kinds.length} devices: give one id per device`);
  return options.kinds.map((kind, index) => {
    const dialect = lineKinds[kind]?.dialect();
    return new SimulatedFirmware({
      id: options.ids?.[index] ?? names[index]!,
      model: factories[kind](),
      latencyMs: options.latencyMs,
      ...(dialect ? { dialect } : {}),
    });
  });
}
