import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWithPymodbus, meterRegisters, relayCoils } from '../../../helpers/modbus-rig.ts';
import { jsonLines, runCli } from '../../../helpers/run-cli.ts';
import { startPymodbus, type PymodbusPeer } from '../../../helpers/start-pymodbus.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-modbus-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function peer(buses: Parameters<typeof startPymodbus>[0]['buses']): Promise<PymodbusPeer> {
  const started = await startPymodbus({ buses });
  cleanups.push(() => started.close());
  return started;
}

function script(dir: string, replies: unknown[]): string {
  const file = path.join(dir, 'script.json');
  writeFileSync(file, JSON.stringify({ replies }));
  return file;
}

/** `home-agent devices pair <port> --profile <profile> [...options] --data-dir <dir>`. */
const pair = (dir: string, port: string, profile: string, options: string[]) =>
  runCli(['devices', 'pair', port, '--profile', profile, ...options, '--data-dir', dir]);

const ask = (dir: string, file: string, extra: string[] = []) =>
  runCli(['ask', '--provider', 'scripted', '--script', file, '--data-dir', dir, '--json', ...extra, 'go']);

describeWithPymodbus('Modbus devices from the command line', () => {
  it('pairs a meter and a relay board as two units of one bus; the agent reads only what was granted', async () => {
    const modbus = await peer([{ units: { 1: meterRegisters(), 2: relayCoils() } }]);
    const port = modbus.paths[0]!;
    const dir = dataDir();

    const meter = await pair(dir, port, 'eastron-sdm120', ['--unit', '1', '--baud', '9600', '--yes']);
    expect(meter.stderr).toBe('');
    const meterId = /id (\S+), kind energy_meter, model SDM120/.exec(meter.stdout)?.[1];
    expect(meterId).toMatch(/^sdm120-.*-u1$/);
    expect(meter.stdout).toContain('Modbus unit 1 at 9600 8N1, profile eastron-sdm120 (Eastron SDM120 energy meter)');
    expect(meter.stdout).toContain('reads now: voltage_v 229.8 V');
    expect(meter.code).toBe(0);
    const relay = await pair(dir, port, 'relay-8', ['--unit', '2', '--yes']);
    expect(relay.code).toBe(0);
    const relayId = /id (\S+), kind relay/.exec(relay.stdout)?.[1];

    const list = await runCli(['devices', 'list', '--data-dir', dir]);
    expect(list.stdout).toContain(`${port} unit 1 at 9600 8N1 (profile eastron-sdm120)\tgranted: (none)`);
    expect(list.stdout).toContain(`${port} unit 2 at 9600 8N1 (profile relay-8)\tgranted: (none)`);
    expect((await runCli(['devices', 'grant', meterId!, 'read', '--data-dir', dir])).code).toBe(0);

    const file = script(dir, [
      {
        toolCalls: [
          { name: 'energy_meter__read', args: {} },
          { name: 'relay__set', args: { device_id: relayId, channel: 1, on: true } },
        ],
      },
      { text: 'ok' },
    ]);
    const events = jsonLines((await ask(dir, file, ['--approve-all'])).stdout);
    const end = (name: string) => events.find((event) => event.type === 'tool/end' && event.name === name);
    expect(end('energy_meter__read')).toMatchObject({
      ok: true,
      result: { device_id: meterId, result: { voltage_v: 229.8, energy_kwh: 12_345.67 } },
    });
    // Paired, never granted: the relay board offers the agent nothing, and a call to it is refused.
    expect(end('relay__set')).toMatchObject({ ok: false, error: { reason: 'unauthorized' }, outcome: 'not_sent' });
    expect((await modbus.command({ op: 'get', bus: 0, unit: 2, table: 'co', address: 0, count: 1 })).values).toEqual([
      0,
    ]);
  });

  it('says what is missing when a Modbus profile comes without a unit, or the unit does not answer', async () => {
    const modbus = await peer([{ units: { 1: meterRegisters() } }]);
    const dir = dataDir();
    const noUnit = await pair(dir, modbus.paths[0]!, 'eastron-sdm120', ['--yes']);
    expect(noUnit.code).not.toBe(0);
    expect(noUnit.stderr).toContain(
      'eastron-sdm120 is a Modbus profile: give the unit id of the device (--unit N, 1–247)',
    );
    const absent = await pair(dir, modbus.paths[0]!, 'eastron-sdm120', ['--unit', '9', '--baud', '9600', '--yes']);
    expect(absent.code).not.toBe(0);
    expect(absent.stderr).toContain(`unit 9 on ${modbus.paths[0]}: not online within`);
    const badParity = await pair(dir, modbus.paths[0]!, 'eastron-sdm120', ['--unit', '1', '--parity', 'mark']);
    expect(badParity.stderr).toContain("--parity must be none, even or odd, got 'mark'");
    expect((await runCli(['devices', 'list', '--data-dir', dir])).stdout).toContain('No paired devices');
  });

  it('runs a meter read and a relay switch on two buses in parallel, named by --device with options in any order', async () => {
    const modbus = await peer([{ units: { 1: meterRegisters() } }, { units: { 5: relayCoils() } }]);
    const dir = dataDir();
    // After the two identity reads of attaching (one request each), every reply waits until requests
    // on both buses are in: only a parallel batch gets its first two answered at once. A serial one
    // shows a barrier timeout, which is shorter than the host's 1 s reply timeout, so the host
    // cannot give up on the first request and make the second arrive while the first still waits.
    await modbus.command({ op: 'barrier', count: 2, timeout_ms: 700, after: 2 });
    const from = modbus.log.length;
    const file = script(dir, [
      {
        toolCalls: [
          { name: 'energy_meter__read', args: {} },
          { name: 'relay__set', args: { channel: 2, on: true } },
        ],
      },
      { text: 'done' },
    ]);
    const run = await ask(dir, file, [
      '--device',
      `${modbus.paths[0]},profile=eastron-sdm120,unit=1,baud=9600`,
      '--device',
      `${modbus.paths[1]},unit=5,stopbits=1,profile=relay-8`,
      '--approve-all',
    ]);
    const events = jsonLines(run.stdout);
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({ mode: 'parallel' });
    await modbus.sync();
    const wire = modbus.log.slice(from);
    const batch = wire.slice(4); // after the two identity reads and their replies
    const firstReply = batch.findIndex((entry) => entry.event === 'reply');
    const before = batch.slice(0, firstReply).filter((entry) => entry.event === 'request');
    expect(new Set(before.map((entry) => entry.bus))).toEqual(new Set([0, 1]));
    expect(wire.filter((entry) => entry.event === 'barrier-timeout')).toEqual([]);
    expect(events.filter((event) => event.type === 'tool/end').map((event) => event.ok)).toEqual([true, true]);
    expect((await modbus.command({ op: 'get', bus: 1, unit: 5, table: 'co', address: 1, count: 1 })).values).toEqual([
      1,
    ]);
  });

  it('refuses --device options that do not fit, naming the option', async () => {
    const dir = dataDir();
    const file = script(dir, [{ text: 'ok' }]);
    const cases: [string, string][] = [
      ['/dev/null,unit=1', 'unit, baud, parity and stopbits need a Modbus profile'],
      [
        '/dev/null,profile=relay-8,speed=9600',
        "unknown option 'speed' (options: profile, unit, baud, parity, stopbits)",
      ],
      ['/dev/null,profile=relay-8,unit=300', "unit must be a unit id 1–247, got '300'"],
      ['/dev/null,profile=relay-8,unit=1,unit=2', "'unit' is given twice"],
    ];
    for (const [flag, message] of cases) {
      const run = await ask(dir, file, ['--device', flag]);
      expect(run.code, flag).toBe(2);
      expect(run.stderr, flag).toContain(message);
    }
  });

  it('keeps grants fail-closed when a unit’s read-back identity changes: a custom profile with a serial number', async () => {
    const dir = dataDir();
    const profile = path.join(dir, 'my-meter.json');
    writeFileSync(
      profile,
      JSON.stringify({
        protocol: 'modbus-rtu',
        name: 'Workshop meter',
        kind: 'meter',
        model: 'WM-3',
        identify: [{ name: 'serial', address: 0xfc00, data_type: 'uint32' }],
        sensors: [
          { name: 'power_w', input_type: 'input', address: 12, data_type: 'float32', unit_of_measurement: 'W' },
        ],
      }),
    );
    const modbus = await peer([
      { units: { 3: { hr: { 0xfc00: { uint32: 39_081_234 } }, ir: { 12: { float32: 1500 } } } } },
    ]);
    const paired = await pair(dir, modbus.paths[0]!, profile, ['--unit', '3', '--yes']);
    expect(paired.stdout).toContain('kind meter, model WM-3, firmware serial=39081234');
    const id = /id (\S+), kind meter/.exec(paired.stdout)?.[1];
    expect((await runCli(['devices', 'grant', id!, '--all', '--data-dir', dir])).code).toBe(0);
    const file = script(dir, [{ toolCalls: [{ name: 'meter__read', args: {} }] }, { text: 'ok' }]);
    expect(jsonLines((await ask(dir, file)).stdout).find((event) => event.type === 'tool/end')).toMatchObject({
      ok: true,
      result: { result: { power_w: 1500 } },
    });

    // Another meter now answers at that port and unit (0x0254 × 65536 + 0xFC13 = 39059456 + 64531 = 39123987).
    await modbus.command({ op: 'set', bus: 0, unit: 3, table: 'hr', address: 0xfc00, values: [0x0254, 0xfc13] });
    const refused = jsonLines((await ask(dir, file)).stdout).find((event) => event.type === 'tool/end');
    // Refused either way: gone from the tools if its identity was read before the turn began, or
    // refused by the gate if it was read while the turn was starting.
    expect(refused).toMatchObject({ ok: false });
    expect(['unauthorized', 'not_found']).toContain((refused?.error as { reason: string }).reason);
    expect(
      (await modbus.command({ op: 'get', bus: 0, unit: 3, table: 'hr', address: 0xfc00, count: 2 })).values,
    ).toEqual([0x0254, 0xfc13]);
    const confirm = await runCli(['devices', 'confirm', id!, '--data-dir', dir]);
    expect(confirm.stdout).toContain(`Changed device at ${modbus.paths[0]}:`);
    expect(confirm.stdout).toContain('kind meter, model WM-3, firmware serial=39123987');
    expect(confirm.stdout).toContain(`was: id ${id}, model WM-3, firmware serial=39081234`);
    expect(confirm.code).not.toBe(0);
  });
});
