import type { JsonSchema } from '../../core/tools/json-schema.ts';
import type { DeviceTool } from '../protocol/frame-schema.ts';
import type { ModbusProfile, ModbusSensor, ModbusSwitch } from './modbus-profile-schema.ts';
import { registersOf } from './modbus-profile-schema.ts';
import type { ModbusTable, ReadItem } from './plan-reads.ts';

/** How a switch's state is read: its `verify` with the defaults filled in, or undefined when it is write-only. */
export interface SwitchReadBack {
  table: ModbusTable;
  address: number;
  /** For registers: the values meaning on and off. */
  stateOn: number;
  stateOff: number;
}

/** The read-back of a switch, or undefined when the profile gives it no `verify`. */
export function switchReadBack(entry: ModbusSwitch): SwitchReadBack | undefined {
  if (entry.verify === undefined) return undefined;
  return {
    table: entry.verify.input_type ?? entry.write_type,
    address: entry.verify.address ?? entry.address,
    stateOn: entry.verify.state_on ?? entry.command_on,
    stateOff: entry.verify.state_off ?? entry.command_off,
  };
}

/** The read item of a sensor. */
export function sensorItem(sensor: ModbusSensor): ReadItem {
  return { key: sensor.name, table: sensor.input_type, address: sensor.address, count: registersOf(sensor.data_type) };
}

/** What `read` reads: every sensor, and every switch that can be read back. */
export function readItems(profile: ModbusProfile): ReadItem[] {
  return [
    ...profile.sensors.map(sensorItem),
    ...profile.switches.flatMap((entry) => {
      const readBack = switchReadBack(entry);
      return readBack ? [{ key: entry.name, table: readBack.table, address: readBack.address, count: 1 }] : [];
    }),
  ];
}

/** The device tools a profile declares, as a hello would: `read` when it can read anything, `set` when it has switches. */
export function modbusTools(profile: ModbusProfile): DeviceTool[] {
  const tools: DeviceTool[] = [];
  const items = readItems(profile);
  if (items.length > 0) {
    const described = [
      ...profile.sensors.map((sensor) =>
        sensor.unit_of_measurement ? `${sensor.name} (${sensor.unit_of_measurement})` : sensor.name,
      ),
      ...profile.switches.filter((entry) => switchReadBack(entry)).map((entry) => `${entry.name} (on/off)`),
    ];
    tools.push({
      name: 'read',
      description: `Read ${profile.name}: ${described.join(', ')}, all in one call.`,
      parameters: { type: 'object', properties: {} },
      parallelSafe: true,
      serial: false,
      readOnly: true,
    });
  }
  if (profile.switches.length > 0) {
    tools.push({
      name: 'set',
      description: setDescription(profile),
      parameters: setParameters(profile.switches),
      parallelSafe: true,
      serial: false,
      ...(profile.confirm_switching ? { confirm: true } : {}),
    });
  }
  return tools;
}

function setDescription(profile: ModbusProfile): string {
  const channels = profile.switches.map((entry) => entry.channel);
  const described = profile.switches.filter((entry) => entry.description !== undefined);
  return [
    `Switch one channel (${channelRange(channels)}) of ${profile.name} on or off.`,
    ...(described.length > 0
      ? [`Channels: ${described.map((entry) => `${entry.channel} = ${entry.description}`).join('; ')}.`]
      : []),
  ].join(' ');
}

function setParameters(switches: readonly ModbusSwitch[]): JsonSchema {
  const channels = switches.map((entry) => entry.channel).sort((a, b) => a - b);
  const first = channels[0]!;
  const last = channels[channels.length - 1]!;
  const contiguous = last - first + 1 === channels.length;
  const channel: JsonSchema = contiguous
    ? { type: 'integer', minimum: first, maximum: last }
    : { type: 'integer', enum: channels };
  return {
    type: 'object',
    properties: { channel, on: { type: 'boolean' } },
    required: switches.length === 1 ? ['on'] : ['channel', 'on'],
  };
}

function channelRange(channels: readonly number[]): string {
  const sorted = [...channels].sort((a, b) => a - b);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  if (sorted.length === 1) return String(first);
  return last - first + 1 === sorted.length ? `${first}–${last}` : sorted.join(', ');
}

/** `voltage_v 229.8 V, relay_1 off`: what a probe read, for a person to recognise the device. */
export function describeReading(profile: ModbusProfile, reading: Readonly<Record<string, unknown>>): string {
  const units = new Map(
    [...profile.identify, ...profile.sensors].map((sensor) => [sensor.name, sensor.unit_of_measurement]),
  );
  return Object.entries(reading)
    .map(([name, value]) => {
      if (typeof value === 'boolean') return `${name} ${value ? 'on' : 'off'}`;
      const unit = units.get(name);
      return `${name} ${String(value)}${unit ? ` ${unit}` : ''}`;
    })
    .join(', ');
}
