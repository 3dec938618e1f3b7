import { ModbusBus } from './modbus-bus.ts';
import { describeBus, type ModbusBusSettings, type ModbusPlacement } from './modbus-bus-settings.ts';
import type { ModbusProfile } from './modbus-profile-schema.ts';
import { ModbusUnitLink, type ModbusUnitLinkOptions } from './modbus-unit-link.ts';

/** Timing defaults for every bus and unit a pool makes (tests shorten them). */
export interface ModbusTimings {
  reconnectIntervalMs?: number;
  transactionTimeoutMs?: number;
  helloTimeoutMs?: number;
  probeIntervalMs?: number;
}

/**
 * The Modbus buses of one registry, one per port path, so that every unit on a port shares one
 * bus and its lane. A bus opens its port while any unit uses it; asking for a path with other
 * settings than its units use now is refused (one port cannot run at two baud rates).
 */
export class ModbusBuses {
  private readonly buses = new Map<string, ModbusBus>();

  constructor(private readonly timings: ModbusTimings = {}) {}

  /** The settings a unit would use: the profile's factory settings, overridden by the placement's. */
  static settingsFor(profile: ModbusProfile, placement: ModbusPlacement): ModbusBusSettings {
    return { ...profile.bus, ...placement.bus };
  }

  /** A new (not started) unit on the bus at `path`; throws when the bus runs with other settings. */
  unit(options: { path: string; profile: ModbusProfile; placement: ModbusPlacement }): ModbusUnitLink {
    const settings = ModbusBuses.settingsFor(options.profile, options.placement);
    const bus = this.bus(options.path, settings);
    const unitOptions: ModbusUnitLinkOptions = { bus, unit: options.placement.unit, profile: options.profile };
    const { transactionTimeoutMs, helloTimeoutMs, probeIntervalMs } = this.timings;
    return new ModbusUnitLink({
      ...unitOptions,
      ...(transactionTimeoutMs !== undefined ? { transactionTimeoutMs } : {}),
      ...(helloTimeoutMs !== undefined ? { helloTimeoutMs } : {}),
      ...(probeIntervalMs !== undefined ? { probeIntervalMs } : {}),
    });
  }

  private bus(path: string, settings: ModbusBusSettings): ModbusBus {
    const existing = this.buses.get(path);
    if (existing && existing.state !== 'idle') {
      if (!sameSettings(existing.settings, settings))
        throw new Error(
          `${path} is a Modbus bus at ${describeBus(existing.settings)} already; a unit at ${describeBus(settings)} cannot share it (give every unit on a port the same baud, parity and stop bits)`,
        );
      return existing;
    }
    // An idle bus has no port open; a new one may use other settings.
    const bus = new ModbusBus({
      path,
      settings,
      ...(this.timings.reconnectIntervalMs !== undefined
        ? { reconnectIntervalMs: this.timings.reconnectIntervalMs }
        : {}),
    });
    this.buses.set(path, bus);
    return bus;
  }
}

function sameSettings(a: ModbusBusSettings, b: ModbusBusSettings): boolean {
  return a.baud === b.baud && a.parity === b.parity && a.stopbits === b.stopbits;
}
