import { z } from 'zod';

/** The serial settings of a Modbus RTU bus (always 8 data bits). */
export const modbusBusSettingsSchema = z.strictObject({
  baud: z.number().int().min(300).max(4_000_000),
  parity: z.enum(['none', 'even', 'odd']),
  stopbits: z.union([z.literal(1), z.literal(2)]),
});
export type ModbusBusSettings = z.infer<typeof modbusBusSettingsSchema>;

/** A Modbus RTU unit id (1–247; 0 is broadcast, which never answers). */
export const modbusUnitSchema = z.number().int().min(1).max(247);

/** Where a Modbus device sits, as typed on the command line and stored with its pairing. */
export interface ModbusPlacement {
  unit: number;
  /** Overrides of the profile's factory bus settings. */
  bus: Partial<ModbusBusSettings>;
}

/** `9600 8N1`, as the settings are written on a device's label. */
export function describeBus(settings: ModbusBusSettings): string {
  return `${settings.baud} 8${settings.parity[0]!.toUpperCase()}${settings.stopbits}`;
}

/** The text options a person types (`unit=1`, `--baud 9600`), each checked; the error names the option and what fits. */
export function readModbusOptions(text: {
  unit?: string | undefined;
  baud?: string | undefined;
  parity?: string | undefined;
  stopbits?: string | undefined;
}): { unit?: number; bus: Partial<ModbusBusSettings> } {
  const result: { unit?: number; bus: Partial<ModbusBusSettings> } = { bus: {} };
  const { shape } = modbusBusSettingsSchema;
  if (text.unit !== undefined) result.unit = checked('unit', modbusUnitSchema, text.unit, 'a unit id 1–247');
  if (text.baud !== undefined) result.bus.baud = checked('baud', shape.baud, text.baud, 'a baud rate such as 9600');
  if (text.parity !== undefined) result.bus.parity = checked('parity', shape.parity, text.parity, 'none, even or odd');
  if (text.stopbits !== undefined) result.bus.stopbits = checked('stopbits', shape.stopbits, text.stopbits, '1 or 2');
  return result;
}

function checked<T>(name: string, schema: z.ZodType<T>, text: string, expected: string): T {
  // Numbers arrive as text; a value that is not a plain number stays text and fails the schema.
  const value = /^\d+$/.test(text) ? Number(text) : text;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${name} must be ${expected}, got '${text}'`);
  return parsed.data;
}
