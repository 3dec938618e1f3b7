import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_MODBUS_PROFILES } from '../../../devices/modbus/builtin-modbus-profiles.ts';
import { parseModbusProfile } from '../../../devices/modbus/modbus-profile-schema.ts';
import { modbusTools } from '../../../devices/modbus/modbus-tools.ts';
import { REPO_ROOT } from '../../helpers/run-cli.ts';

const meter = {
  protocol: 'modbus-rtu',
  name: 'Test meter',
  kind: 'energy_meter',
  model: 'TM-1',
  sensors: [{ name: 'voltage_v', input_type: 'input', address: 0, data_type: 'float32' }],
};

describe('parseModbusProfile', () => {
  it('fills in Home Assistant’s defaults (holding registers, int16, no swap, scale 1) and the factory bus', () => {
    const profile = parseModbusProfile({ ...meter, sensors: [{ name: 'level', address: 3 }] });
    expect(profile.sensors[0]).toEqual({
      name: 'level',
      input_type: 'holding',
      address: 3,
      data_type: 'int16',
      swap: 'none',
      scale: 1,
      offset: 0,
    });
    expect(profile.bus).toEqual({ baud: 9600, parity: 'none', stopbits: 1 });
  });

  it('numbers switches from 1 when they give no channel', () => {
    const profile = parseModbusProfile({
      ...meter,
      sensors: [],
      switches: [
        { name: 'pump', address: 0 },
        { name: 'heater', address: 1 },
      ],
    });
    expect(profile.switches.map((entry) => entry.channel)).toEqual([1, 2]);
  });

  it.each([
    [{ ...meter, sensors: [{ ...meter.sensors[0], adress: 4 }] }, /sensors\.0: Unrecognized key.*adress/],
    [{ ...meter, sensors: [{ ...meter.sensors[0], data_type: 'float64' }] }, /sensors\.0\.data_type/],
    [{ ...meter, sensors: [{ ...meter.sensors[0], count: 1 }] }, /voltage_v: count 1 does not fit data_type float32/],
    [{ ...meter, sensors: [{ name: 'x', address: 0, swap: 'word' }] }, /x: swap word needs a 32-bit data_type/],
    [{ ...meter, sensors: [] }, /no sensors and no switches/],
    [{ ...meter, sensors: [meter.sensors[0], meter.sensors[0]] }, /name voltage_v appears twice/],
    [{ ...meter, switches: [{ name: 'a', address: 0, command_on: 5 }] }, /a: command_on\/command_off apply to holding/],
    [
      {
        ...meter,
        switches: [
          { name: 'a', address: 0, channel: 2 },
          { name: 'b', address: 1, channel: 2 },
        ],
      },
      /switch channel 2 appears twice/,
    ],
    [{ ...meter, protocol: 'lines' }, /protocol/],
    [{ ...meter, kind: 'Energy Meter' }, /kind/],
  ])('refuses a bad profile with an error naming the problem (%#)', (profile, message) => {
    expect(() => parseModbusProfile(profile, 'my-meter.json')).toThrow(/^my-meter\.json is not a valid Modbus profile/);
    expect(() => parseModbusProfile(profile, 'my-meter.json')).toThrow(message);
  });
});

describe('the shipped profiles', () => {
  it('declare the SDM120’s read with the five values of its register map', () => {
    const tools = modbusTools(BUILTIN_MODBUS_PROFILES['eastron-sdm120']!);
    expect(tools.map((tool) => tool.name)).toEqual(['read']);
    expect(tools[0]!.description).toBe(
      'Read Eastron SDM120 energy meter: voltage_v (V), current_a (A), power_w (W), frequency_hz (Hz), energy_kwh (kWh), all in one call.',
    );
    // The maker's addresses, written out in hex as the manual lists them.
    expect(BUILTIN_MODBUS_PROFILES['eastron-sdm120']!.sensors.map((sensor) => [sensor.name, sensor.address])).toEqual([
      ['voltage_v', 0x0000],
      ['current_a', 0x0006],
      ['power_w', 0x000c],
      ['frequency_hz', 0x0046],
      ['energy_kwh', 0x0156],
    ]);
  });

  it('declare relay-8’s set with channel 1–8 and on, asking the person first', () => {
    const set = modbusTools(BUILTIN_MODBUS_PROFILES['relay-8']!).find((tool) => tool.name === 'set')!;
    expect(set.parameters).toEqual({
      type: 'object',
      properties: { channel: { type: 'integer', minimum: 1, maximum: 8 }, on: { type: 'boolean' } },
      required: ['channel', 'on'],
    });
    expect(set.confirm).toBe(true);
  });

  it('are shown in docs/modbus.md exactly as shipped', () => {
    const docs = readFileSync(path.join(REPO_ROOT, 'docs/modbus.md'), 'utf8');
    const blocks = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as unknown);
    for (const name of ['eastron-sdm120', 'relay-8']) {
      const shipped = JSON.parse(
        readFileSync(path.join(REPO_ROOT, `devices/modbus/profiles/${name}.json`), 'utf8'),
      ) as unknown;
      expect(blocks).toContainEqual(shipped);
    }
  });
});
