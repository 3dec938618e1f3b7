import { describe } from 'vitest';
import { BUILTIN_MODBUS_PROFILES } from '../../devices/modbus/builtin-modbus-profiles.ts';
import type { ModbusProfile } from '../../devices/modbus/modbus-profile-schema.ts';
import type { ModbusBusSettings } from '../../devices/modbus/modbus-bus-settings.ts';
import { DeviceRegistry, type AttachOptions } from '../../devices/registry/device-registry.ts';
import type { DeviceProfile } from '../../devices/profiles/resolve-profile.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { pymodbusMissing } from './start-pymodbus.ts';

/** `describe` when pymodbus can run here, else a skipped suite whose title says the apt-get line. */
export function describeWithPymodbus(title: string, body: () => void): void {
  const missing = pymodbusMissing();
  if (missing) describe.skip(`${title} (skipped: ${missing})`, body);
  else describe(title, body);
}

/** A shipped Modbus profile by name (throws on a typo, so a test never runs without one). */
export function shippedProfile(name: 'eastron-sdm120' | 'relay-8'): ModbusProfile {
  const profile = BUILTIN_MODBUS_PROFILES[name];
  if (!profile) throw new Error(`no shipped profile ${name}`);
  return profile;
}

/** The meter values the tests store on the pymodbus side (pymodbus encodes them; the host decodes). */
export const METER_VALUES = { voltage: 229.8, current: 4.35, power: 998.6, frequency: 49.98, energy: 12_345.67 };

/** The SDM120's input registers holding METER_VALUES, at the maker's addresses. */
export function meterRegisters(values = METER_VALUES): { ir: Record<number, { float32: number }> } {
  return {
    ir: {
      0x0000: { float32: values.voltage },
      0x0006: { float32: values.current },
      0x000c: { float32: values.power },
      0x0046: { float32: values.frequency },
      0x0156: { float32: values.energy },
    },
  };
}

/** Eight relay coils, all off. */
export function relayCoils(): { co: Record<number, boolean> } {
  return { co: Object.fromEntries(Array.from({ length: 8 }, (_, index) => [index, false])) };
}

/** Short timings so a missing answer shows in a test's time, not a person's. */
export const FAST_MODBUS = {
  reconnectIntervalMs: 20,
  waysIn: builtinWaysIn({ modbus: { transactionTimeoutMs: 400, probeIntervalMs: 100, helloTimeoutMs: 1500 } }),
};

/** A Modbus profile as pairing reads it (`resolveDeviceProfile`), for attaching it. */
export function modbusProfile(profile: ModbusProfile): DeviceProfile {
  return { protocol: 'modbus-rtu', name: profile.model, profile };
}

/** A registry with test timings; the caller owns and disposes it. */
export function modbusRegistry(): DeviceRegistry {
  return new DeviceRegistry(FAST_MODBUS);
}

/** Attaches a Modbus unit with every tool granted and returns its id. */
export async function attachUnit(
  registry: DeviceRegistry,
  options: { path: string; profile: ModbusProfile; unit: number; bus?: Partial<ModbusBusSettings> } & Omit<
    AttachOptions,
    'wayInOptions' | 'profile'
  >,
): Promise<string> {
  const { path, profile, unit, bus, ...rest } = options;
  const info = await registry.attach(path, {
    grant: 'all',
    ...rest,
    profile: modbusProfile(profile),
    wayInOptions: { unit, ...bus },
  });
  return info.id;
}

/** The devices plugin's tool of that name (throws with the names it has when missing). */
export function deviceTool(registry: DeviceRegistry, name: string): ToolDefinition {
  const tools = createDevicesPlugin(registry).tools();
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(', ')}`);
  return tool;
}
