import { z } from 'zod';
import { nameSchema } from '../protocol/frame-schema.ts';
import { modbusBusSettingsSchema } from './modbus-bus-settings.ts';

const address = z.number().int().min(0).max(0xffff);
const registerValue = z.number().int().min(0).max(0xffff);

/** The 16-bit data types a register value can have; 32-bit ones span two registers. */
export const MODBUS_DATA_TYPES = ['int16', 'uint16', 'int32', 'uint32', 'float32'] as const;
export type ModbusDataType = (typeof MODBUS_DATA_TYPES)[number];

/** Registers a data type spans. */
export function registersOf(dataType: ModbusDataType): 1 | 2 {
  return dataType === 'int16' || dataType === 'uint16' ? 1 : 2;
}

/**
 * A value read from registers, as Home Assistant's modbus `sensors` describe one (same key names):
 * which table, the address, the data type, byte/word swap, then `scale`, `offset`, `precision`.
 */
export const modbusSensorSchema = z.strictObject({
  /** The key in the `read` result (`voltage_v`). */
  name: nameSchema,
  description: z.string().max(200).optional(),
  /** Function 04 (`input`) or 03 (`holding`); Home Assistant's default is `holding`. */
  input_type: z.enum(['input', 'holding']).default('holding'),
  address,
  data_type: z.enum(MODBUS_DATA_TYPES).default('int16'),
  /** Registers to read; must match the data type when given (Home Assistant derives it). */
  count: z.number().int().min(1).max(2).optional(),
  /** `byte` swaps the bytes of each register, `word` the two registers of a 32-bit value, `word_byte` both. */
  swap: z.enum(['none', 'byte', 'word', 'word_byte']).default('none'),
  scale: z.number().finite().default(1),
  offset: z.number().finite().default(0),
  /** Decimals in the result; absent: see docs/modbus.md ("Numbers"). */
  precision: z.number().int().min(0).max(10).optional(),
  unit_of_measurement: z.string().max(20).optional(),
});
export type ModbusSensor = z.infer<typeof modbusSensorSchema>;

/** How a switch's state is read back after a write (Home Assistant's `verify`). */
export const modbusVerifySchema = z.strictObject({
  /** Default: the table the switch writes (coils, or holding registers). */
  input_type: z.enum(['coil', 'discrete_input', 'holding', 'input']).optional(),
  /** Default: the address the switch writes. */
  address: address.optional(),
  /** Register values meaning on and off (registers only); default the switch's `command_on`/`command_off`. */
  state_on: registerValue.optional(),
  state_off: registerValue.optional(),
});

/** Something that switches (Home Assistant's modbus `switches`): a coil, or a holding register with on/off values. */
export const modbusSwitchSchema = z.strictObject({
  name: nameSchema,
  /** What `set`'s `channel` argument selects; default its position in the list, from 1. */
  channel: z.number().int().min(0).max(0xffff).optional(),
  description: z.string().max(200).optional(),
  /** Function 05 (`coil`) or 06 (`holding`). */
  write_type: z.enum(['coil', 'holding']).default('coil'),
  address,
  /** Values written to a holding register for on and off. */
  command_on: registerValue.default(1),
  command_off: registerValue.default(0),
  /** Read the state back after each write and fail when it does not match. */
  verify: modbusVerifySchema.optional(),
});
export type ModbusSwitch = z.infer<typeof modbusSwitchSchema> & { channel: number };

const modbusProfileShape = z.strictObject({
  protocol: z.literal('modbus-rtu'),
  name: z.string().min(1).max(100),
  kind: nameSchema,
  model: z.string().min(1).max(100),
  /** Where the register map comes from (the maker's document). */
  source: z.string().max(500).optional(),
  /** The maker's factory settings; `--device …,baud=…` and pairing may override them. */
  bus: modbusBusSettingsSchema.default({ baud: 9600, parity: 'none', stopbits: 1 }),
  /** Values that tell this device apart (a serial number): read when it connects, part of its identity. */
  identify: z.array(modbusSensorSchema).max(8).default([]),
  sensors: z.array(modbusSensorSchema).max(64).default([]),
  switches: z.array(modbusSwitchSchema).max(64).default([]),
  /** The person approves each `set` (switching mains, a heat pump). */
  confirm_switching: z.boolean().default(false),
});

/** A Modbus RTU register map as data: becomes the device tools `read` (sensors) and `set` (switches). */
export type ModbusProfile = Omit<z.infer<typeof modbusProfileShape>, 'switches'> & { switches: ModbusSwitch[] };

/** Validates a Modbus profile from untrusted JSON-shaped data; throws an error naming each problem and where. */
export function parseModbusProfile(value: unknown, source = 'the Modbus profile'): ModbusProfile {
  const parsed = modbusProfileShape.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new Error(`${source} is not a valid Modbus profile: ${issues.join('; ')}`);
  }
  const profile = parsed.data;
  const problems = [
    ...(profile.sensors.length === 0 && profile.switches.length === 0 ? ['it has no sensors and no switches'] : []),
    ...[...profile.identify, ...profile.sensors].flatMap((sensor) => sensorProblems(sensor)),
    ...profile.switches.flatMap((entry) => switchProblems(entry)),
    ...duplicates(
      [...profile.sensors, ...profile.switches].map((entry) => entry.name),
      'name',
    ),
    ...duplicates(
      profile.identify.map((entry) => entry.name),
      'identify name',
    ),
    ...duplicates(
      profile.switches.map((entry, index) => String(entry.channel ?? index + 1)),
      'switch channel',
    ),
  ];
  if (problems.length > 0) throw new Error(`${source} is not a valid Modbus profile: ${problems.join('; ')}`);
  return {
    ...profile,
    switches: profile.switches.map((entry, index) => ({ ...entry, channel: entry.channel ?? index + 1 })),
  };
}

function sensorProblems(sensor: z.infer<typeof modbusSensorSchema>): string[] {
  const span = registersOf(sensor.data_type);
  const problems: string[] = [];
  if (sensor.count !== undefined && sensor.count !== span)
    problems.push(`${sensor.name}: count ${sensor.count} does not fit data_type ${sensor.data_type} (${span})`);
  if (span === 1 && (sensor.swap === 'word' || sensor.swap === 'word_byte'))
    problems.push(`${sensor.name}: swap ${sensor.swap} needs a 32-bit data_type`);
  if (sensor.address + span - 1 > 0xffff) problems.push(`${sensor.name}: runs past register 65535`);
  return problems;
}

function switchProblems(entry: z.infer<typeof modbusSwitchSchema>): string[] {
  const problems: string[] = [];
  if (entry.write_type === 'coil' && (entry.command_on !== 1 || entry.command_off !== 0))
    problems.push(`${entry.name}: command_on/command_off apply to holding registers, not coils`);
  if (entry.write_type === 'holding' && entry.command_on === entry.command_off)
    problems.push(`${entry.name}: command_on and command_off are the same value`);
  const verifyTable = entry.verify?.input_type;
  const readsBits = verifyTable === 'coil' || verifyTable === 'discrete_input';
  if (readsBits && (entry.verify?.state_on !== undefined || entry.verify?.state_off !== undefined))
    problems.push(`${entry.name}: verify state_on/state_off apply to registers, not ${verifyTable}s`);
  return problems;
}

function duplicates(names: string[], what: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) (seen.has(name) ? repeated : seen).add(name);
  return [...repeated].map((name) => `${what} ${name} appears twice`);
}
