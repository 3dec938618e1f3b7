import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { ModbusBus } from '../../../devices/modbus/modbus-bus.ts';
import { ModbusUnitLink } from '../../../devices/modbus/modbus-unit-link.ts';
import { shippedProfile } from '../../helpers/modbus-rig.ts';
import { Disposables } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

/** A unit on a bus whose port is not there (yet): the link stays `connecting`; no pymodbus needed. */
function unitOnAbsentPort(unit: number): { link: ModbusUnitLink; port: string } {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-unit-'));
  const port = path.join(folder, 'ttyUSB0');
  const bus = new ModbusBus({ path: port, settings: { baud: 9600, parity: 'none', stopbits: 1 } });
  const link = new ModbusUnitLink({ bus, unit, profile: shippedProfile('eastron-sdm120') });
  owned.add({
    close: async () => {
      await link.dispose();
      rmSync(folder, { recursive: true, force: true });
    },
  });
  link.start();
  return { link, port };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return ToolError.isInstance(error) ? error.toData() : `not a ToolError: ${String(error)}`;
  }
}

describe('ModbusUnitLink', () => {
  it('says which unit did not come online in time, and asks whether it answers at these bus settings', async () => {
    const { link, port } = unitOnAbsentPort(9);
    expect(await failureOf(link.whenOnline({ timeoutMs: 50 }))).toEqual({
      reason: 'device_offline',
      detail: `unit 9 on ${port}: not online within 50 ms (does unit 9 answer at these bus settings?)`,
    });
    expect(link.status).toBe('connecting');
  });

  it('answers a wait for a caller that already gave up at once, instead of waiting for the unit', async () => {
    const { link } = unitOnAbsentPort(3);
    const failure = failureOf(link.whenOnline({ timeoutMs: 600_000, signal: AbortSignal.abort() }));
    expect(await failure).toMatchObject({ reason: 'device_offline' });
  });

  it('answers a wait on a disposed unit at once', async () => {
    const { link } = unitOnAbsentPort(4);
    await link.dispose();
    expect(link.status).toBe('closed');
    expect(await failureOf(link.whenOnline({ timeoutMs: 600_000 }))).toMatchObject({ reason: 'device_offline' });
  });

  it('fails a call fast once disposed, naming the unit and its state', async () => {
    const { link, port } = unitOnAbsentPort(5);
    await link.dispose();
    expect(await failureOf(link.call('read', {}))).toEqual({
      reason: 'device_offline',
      detail: `unit 5 on ${port} is closed`,
      hint: 'retry once the device is back',
    });
  });
});
