import { registersOf, type ModbusSensor } from './modbus-profile-schema.ts';

/** Significant digits of a float32 (24-bit mantissa): more would show noise, not the home. */
const FLOAT32_DIGITS = 7;

/**
 * Turns a sensor's registers into its value: bytes in wire order (each register high byte first,
 * the first register first, as Modbus sends them), undone per `swap`, read as `data_type`, then
 * `value × scale + offset`, rounded (see `roundReading`).
 */
export function decodeSensor(sensor: ModbusSensor, registers: readonly number[]): number {
  const span = registersOf(sensor.data_type);
  if (registers.length !== span)
    throw new Error(`${sensor.name}: expected ${span} register(s), got ${registers.length}`);
  const words = sensor.swap === 'word' || sensor.swap === 'word_byte' ? [...registers].reverse() : [...registers];
  const bytes = Buffer.alloc(span * 2);
  words.forEach((word, index) => {
    if (sensor.swap === 'byte' || sensor.swap === 'word_byte') bytes.writeUInt16LE(word, index * 2);
    else bytes.writeUInt16BE(word, index * 2);
  });
  const raw = readType(bytes, sensor.data_type);
  return roundReading(raw * sensor.scale + sensor.offset, sensor);
}

function readType(bytes: Buffer, dataType: ModbusSensor['data_type']): number {
  switch (dataType) {
    case 'int16':
      return bytes.readInt16BE(0);
    case 'uint16':
      return bytes.readUInt16BE(0);
    case 'int32':
      return bytes.readInt32BE(0);
    case 'uint32':
      return bytes.readUInt32BE(0);
    case 'float32':
      return bytes.readFloatBE(0);
  }
}

/**
 * `precision` decimals when the profile gives them. Otherwise a float32 keeps 7 significant digits
 * (229.8 stays 229.8, not 229.8000030517578), and a scaled integer keeps as many decimals as its
 * scale and offset have (12345 × 0.01 → 123.45), so no digit the device sent is lost or invented.
 */
export function roundReading(
  value: number,
  sensor: Pick<ModbusSensor, 'data_type' | 'scale' | 'offset' | 'precision'>,
): number {
  if (!Number.isFinite(value)) return value;
  if (sensor.precision !== undefined) return Number(value.toFixed(sensor.precision));
  if (sensor.data_type === 'float32') return Number(value.toPrecision(FLOAT32_DIGITS));
  const decimals = Math.max(decimalsOf(sensor.scale), decimalsOf(sensor.offset));
  return decimals === 0 ? value : Number(value.toFixed(decimals));
}

function decimalsOf(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]) + (text.split('e')[0]!.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}
