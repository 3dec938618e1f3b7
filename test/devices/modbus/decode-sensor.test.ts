import { describe, expect, it } from 'vitest';
import { decodeSensor } from '../../../devices/modbus/decode-sensor.ts';
import { modbusSensorSchema, type ModbusSensor } from '../../../devices/modbus/modbus-profile-schema.ts';

function sensor(fields: Partial<ModbusSensor> & Pick<ModbusSensor, 'data_type'>): ModbusSensor {
  return modbusSensorSchema.parse({ name: 'value', address: 0, input_type: 'input', ...fields });
}

// Every expected value below is worked out by hand from the IEEE 754 / two's-complement layouts,
// never by running the decoder.
describe('decodeSensor', () => {
  it('reads a float32 sent high word first, keeping the 7 digits a float32 holds', () => {
    // 229.8 = 0x4365CCCD as float32 (sign 0, exponent 134, mantissa 0x65CCCD) = 229.80000305…
    expect(decodeSensor(sensor({ data_type: 'float32' }), [0x4365, 0xcccd])).toBe(229.8);
    // 50.0 = 0x42480000 exactly.
    expect(decodeSensor(sensor({ data_type: 'float32' }), [0x4248, 0x0000])).toBe(50);
  });

  it('undoes word swap, byte swap and both for 32-bit values', () => {
    // 0x00010002 = 65538; word-swapped on the wire: 0x0002, 0x0001.
    expect(decodeSensor(sensor({ data_type: 'uint32', swap: 'word' }), [0x0002, 0x0001])).toBe(65_538);
    // byte swap: each register's bytes reversed: 0x0100, 0x0200.
    expect(decodeSensor(sensor({ data_type: 'uint32', swap: 'byte' }), [0x0100, 0x0200])).toBe(65_538);
    // both: 0x0200, 0x0100.
    expect(decodeSensor(sensor({ data_type: 'uint32', swap: 'word_byte' }), [0x0200, 0x0100])).toBe(65_538);
    // 229.8 (0x4365CCCD) sent word_byte swapped: 0xCDCC, 0x6543.
    expect(decodeSensor(sensor({ data_type: 'float32', swap: 'word_byte' }), [0xcdcc, 0x6543])).toBe(229.8);
  });

  it('reads signed types in two’s complement', () => {
    expect(decodeSensor(sensor({ data_type: 'int16' }), [0xfffe])).toBe(-2);
    expect(decodeSensor(sensor({ data_type: 'uint16' }), [0xfffe])).toBe(65_534);
    // -100000 = 0xFFFE7960
    expect(decodeSensor(sensor({ data_type: 'int32' }), [0xfffe, 0x7960])).toBe(-100_000);
  });

  it('applies scale and offset, keeping as many decimals as the scale has', () => {
    // 2301 × 0.1 = 230.1 (not 230.10000000000002)
    expect(decodeSensor(sensor({ data_type: 'uint16', scale: 0.1 }), [2301])).toBe(230.1);
    // 123456789 × 0.001 = 123456.789: every digit the device sent survives
    expect(decodeSensor(sensor({ data_type: 'uint32', scale: 0.001 }), [0x075b, 0xcd15])).toBe(123_456.789);
    // -5 × 0.5 - 40 = -42.5
    expect(decodeSensor(sensor({ data_type: 'int16', scale: 0.5, offset: -40 }), [0xfffb])).toBe(-42.5);
  });

  it('rounds to the profile’s precision when it gives one', () => {
    expect(decodeSensor(sensor({ data_type: 'float32', precision: 0 }), [0x4365, 0xcccd])).toBe(230);
    expect(decodeSensor(sensor({ data_type: 'uint16', scale: 0.01, precision: 1 }), [12_345])).toBe(123.5);
  });

  it('refuses a register count that does not fit the data type', () => {
    expect(() => decodeSensor(sensor({ data_type: 'float32' }), [0x4365])).toThrow(/expected 2 register/);
  });
});
