import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { modbusProfileFormat } from '../../../devices/modbus/modbus-profile-format.ts';
import { profileOfFormat } from '../../../devices/profiles/profile-format.ts';
import { resolveDeviceProfile } from '../../../devices/ways-in/builtin-profile-formats.ts';
import type { ModbusProfile } from '../../../devices/modbus/modbus-profile-schema.ts';
import type { DeviceProblem } from '../../../devices/registry/device-registry.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import {
  attachUnit,
  describeWithPymodbus,
  deviceTool,
  meterRegisters,
  modbusRegistry,
  shippedProfile,
} from '../../helpers/modbus-rig.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { startPymodbus } from '../../helpers/start-pymodbus.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

function tempFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-profile-'));
  owned.add({ close: async () => rmSync(folder, { recursive: true, force: true }) });
  return folder;
}

/** A custom profile from a file, as a person would write one, resolved like `profile=./file.json`. */
function profileFile(profile: Record<string, unknown>): { file: string; profile: ModbusProfile } {
  const file = path.join(tempFolder(), 'my-meter.json');
  writeFileSync(
    file,
    JSON.stringify({ protocol: 'modbus-rtu', kind: 'meter', model: 'TEST-1', name: 'Test meter', ...profile }),
  );
  const resolved = profileOfFormat(modbusProfileFormat, resolveDeviceProfile(file));
  if (resolved === undefined) throw new Error('not read as a Modbus profile');
  return { file, profile: resolved };
}

describeWithPymodbus('an Eastron SDM120 against pymodbus', () => {
  it('reads the five values the server stored, decoded as worked out by hand, in five transactions', async () => {
    const peer = owned.add(await startPymodbus({ buses: [{ baudrate: 2400, units: { 1: meterRegisters() } }] }));
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile: shippedProfile('eastron-sdm120'), unit: 1 });
    await peer.sync();
    const from = peer.log.length;
    // float32 as pymodbus packs them (high word first), then 7 significant digits:
    // 229.8 → 0x4365CCCD = 229.800003…; 4.35 → 0x408B3333 = 4.3499999…; 998.6 → 0x4479A666 = 998.59997…;
    // 49.98 → 0x4247EB85 = 49.979999…; 12345.67 → 0x4640E6AE = 12345.669921875.
    expect(await runTool(deviceTool(registry, 'energy_meter__read'), {})).toEqual({
      ok: true,
      value: {
        device_id: id,
        result: { voltage_v: 229.8, current_a: 4.35, power_w: 998.6, frequency_hz: 49.98, energy_kwh: 12_345.67 },
      },
    });
    await peer.sync();
    const requests = peer.log.slice(from).filter((entry) => entry.event === 'request');
    expect(requests.map((entry) => [entry.unit, entry.function, entry.address, entry.count])).toEqual([
      [1, 4, 0x0000, 2],
      [1, 4, 0x0006, 2],
      [1, 4, 0x000c, 2],
      [1, 4, 0x0046, 2],
      [1, 4, 0x0156, 2],
    ]);
  });

  it('decodes each byte and word order a custom profile names, packed by pymodbus’ own builder', async () => {
    const { profile } = profileFile({
      sensors: [
        { name: 'little_words', address: 0, data_type: 'float32', swap: 'word' },
        { name: 'little_bytes', address: 2, data_type: 'int32', swap: 'word_byte' },
        { name: 'scaled', address: 4, data_type: 'uint16', scale: 0.1, offset: -10 },
        { name: 'signed', address: 5, data_type: 'int16' },
      ],
    });
    const peer = owned.add(
      await startPymodbus({
        buses: [
          {
            units: {
              7: {
                hr: {
                  0: { float32: -12.5, wordorder: 'little' },
                  2: { int32: -100_000, byteorder: 'little', wordorder: 'little' },
                  4: 2301,
                  5: { int16: -2 },
                },
              },
            },
          },
        ],
      }),
    );
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile, unit: 7 });
    // -12.5 is exact in float32; 2301 × 0.1 − 10 = 220.1; the four holding registers are one transaction.
    expect(await registry.call(id, 'read', {})).toEqual({
      little_words: -12.5,
      little_bytes: -100_000,
      scaled: 220.1,
      signed: -2,
    });
    await peer.sync();
    expect(peer.log.filter((entry) => entry.event === 'request' && entry.function === 3).at(-1)).toMatchObject({
      address: 0,
      count: 6,
    });
  });

  it('names the exception when the device refuses an address', async () => {
    const { profile } = profileFile({
      sensors: [
        { name: 'there', input_type: 'input', address: 0, data_type: 'uint16' },
        { name: 'missing', input_type: 'input', address: 500, data_type: 'uint16' },
      ],
    });
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: { ir: { 0: 7 } } } }] }));
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile, unit: 1 });
    const result = await runTool(deviceTool(registry, 'meter__read'), { device_id: id });
    expect(result).toEqual({
      ok: false,
      reason: 'failed',
      field: undefined,
      detail: `unit 1 on ${peer.paths[0]} answered read input registers 500 with exception 2 (illegal data address)`,
    });
  });

  it('times out naming the unit when it stops answering, and stays attached', async () => {
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 3: meterRegisters() } }] }));
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile: shippedProfile('eastron-sdm120'), unit: 3 });
    await peer.command({ op: 'drop', bus: 0, unit: 3 });
    const result = await runTool(deviceTool(registry, 'energy_meter__read'), {});
    expect(result).toMatchObject({
      ok: false,
      reason: 'timeout',
      detail: `unit 3 on ${peer.paths[0]} did not answer read input registers 0–1 within 400 ms`,
    });
    expect(registry.get(id)?.session.status).toBe('online');
  });

  it('refuses to attach a unit that does not answer, saying which', async () => {
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: meterRegisters() } }] }));
    const registry = owned.add(modbusRegistry());
    await expect(
      attachUnit(registry, {
        path: peer.paths[0]!,
        profile: shippedProfile('eastron-sdm120'),
        unit: 9,
        waitOnlineMs: 1000,
      }),
    ).rejects.toMatchObject({
      reason: 'device_offline',
      detail: expect.stringContaining(`unit 9 on ${peer.paths[0]}`),
    });
    expect(registry.list()).toEqual([]);
  });

  it('counts a reply with a broken CRC as a frame problem, fails that read, and reads again after', async () => {
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: meterRegisters() } }] }));
    const registry = owned.add(modbusRegistry());
    const problems: DeviceProblem[] = [];
    registry.onProblem((problem) => problems.push(problem));
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile: shippedProfile('eastron-sdm120'), unit: 1 });
    await peer.command({ op: 'garble', bus: 0 });
    await expect(registry.call(id, 'read', {})).rejects.toMatchObject({
      reason: 'failed',
      detail: expect.stringContaining(
        `unit 1 on ${peer.paths[0]} sent a damaged reply to read input registers 0–1 (CRC error)`,
      ),
    });
    expect(registry.get(id)?.session.stats.invalidFrame).toBe(1);
    expect(problems).toEqual([
      { deviceId: id, problem: 'invalid_frame', detail: `unit 1 on ${peer.paths[0]}: CRC error` },
    ]);
    expect(await registry.call(id, 'read', {})).toMatchObject({ voltage_v: 229.8 });
  });
});
