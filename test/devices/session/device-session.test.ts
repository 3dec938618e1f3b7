import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables, openTestSession, waitForLog, waitForStatus } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return ToolError.isInstance(error) ? error.reason : `not a ToolError: ${String(error)}`;
  }
}

describe('DeviceSession', () => {
  it('says hello and round-trips a call over a real pseudo-terminal', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    const hello = await session.whenOnline({ timeoutMs: 5000 });
    expect(hello.device).toEqual({ id: 'lamp-1', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' });
    expect(hello.tools.map((tool) => tool.name)).toEqual(['set', 'get']);
    expect(hello.concurrent).toBe(false);
    expect(await session.call('set', { on: true, brightness: 40 })).toEqual({ on: true, brightness: 40 });
    expect(await session.call('get', {})).toEqual({ on: true, brightness: 40 });
  });

  it('maps a device error frame to a ToolError with the field', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    const error = await session.call('set', { brightness: 101 }).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.toData()).toMatchObject({ reason: 'type', field: 'brightness' });
  });

  it('times out a call to a silent device and keeps working afterwards', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    sim.devices[0]!.firmware.faults.silent = true;
    expect(await reasonOf(session.call('get', {}, { timeoutMs: 200 }))).toBe('timeout');
    sim.devices[0]!.firmware.faults.silent = false;
    expect(await session.call('get', {})).toEqual({ on: false, brightness: 100 });
  });

  it('ends a call with aborted when its signal aborts', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    sim.devices[0]!.firmware.faults.silent = true;
    const controller = new AbortController();
    const call = reasonOf(session.call('get', {}, { signal: controller.signal }));
    controller.abort();
    expect(await call).toBe('aborted');
  });

  it('counts garbage and oversized frames without failing the call', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['thermometer'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    const problems: string[] = [];
    session.onProblem((problem) => problems.push(problem.problem));
    Object.assign(sim.devices[0]!.firmware.faults, { garbageBefore: true, oversizedBefore: true });
    expect(await session.call('read', {})).toEqual({ celsius: 21.5, humidity: 45 });
    expect(session.stats).toMatchObject({ invalidJson: 1, oversized: 1 });
    expect(problems).toEqual(['invalid_json', 'oversized']);
    expect(session.status).toBe('online');
  });

  it('reports a frame that is JSON but not a protocol frame', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    const reported = new Promise<string>((resolve) => session.onProblem((problem) => resolve(problem.problem)));
    await sim.devices[0]!.firmware.sendRaw('{"id":"seven","ok":"yes"}\n');
    expect(await reported).toBe('invalid_frame');
    expect(session.stats.invalidFrame).toBe(1);
  });

  it('fails a pending call with device_offline on unplug and reconnects when the port returns', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const device = sim.devices[0]!;
    const session = owned.add(openTestSession(device.path));
    await session.whenOnline({ timeoutMs: 5000 });
    await session.call('set', { on: true });
    const release = device.firmware.hold();
    const pending = reasonOf(session.call('get', {}, { timeoutMs: 60_000 }));
    // The request is on the device before the cable goes: only the close can end it.
    await waitForLog(device.firmware, (entry) => entry.type === 'start' && entry.tool === 'get');
    const offline = waitForStatus(session, 'offline');
    await sim.unplug(device.id);
    expect(await pending).toBe('device_offline');
    await offline;
    expect(await reasonOf(session.call('get', {}))).toBe('device_offline');
    release();
    const online = waitForStatus(session, 'online');
    await sim.replug(device.id);
    await online;
    expect(await session.call('get', {})).toEqual({ on: true, brightness: 100 });
    expect(session.stats.connects).toBe(2);
  });

  it('takes the late answer of a call its caller stopped as expected: no dropped frame is reported', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const device = sim.devices[0]!;
    const session = owned.add(openTestSession(device.path));
    await session.whenOnline({ timeoutMs: 5000 });
    const problems: string[] = [];
    session.onProblem((problem) => problems.push(problem.problem));
    const release = device.firmware.hold();
    const controller = new AbortController();
    const stopped = reasonOf(session.call('set', { on: true }, { signal: controller.signal }));
    // The request is on the device when Stop comes: it will act, and answer late.
    await waitForLog(device.firmware, (entry) => entry.type === 'start' && entry.tool === 'set');
    controller.abort();
    expect(await stopped).toBe('aborted');
    release();
    // One line after another on the wire: by the time get is answered, the late answer was read.
    expect(await session.call('get', {})).toEqual({ on: true, brightness: 100 });
    expect(problems).toEqual([]);
    expect(session.stats.unmatchedResponse).toBe(0);
  });

  it('drops and reports the late answer of a call that already timed out', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    const release = sim.devices[0]!.firmware.hold();
    expect(await reasonOf(session.call('get', {}, { timeoutMs: 50 }))).toBe('timeout');
    const reported = new Promise<string>((resolve) => session.onProblem((problem) => resolve(problem.problem)));
    release();
    expect(await reported).toBe('unmatched_response');
    expect(session.stats.unmatchedResponse).toBe(1);
    expect(await session.call('get', {})).toEqual({ on: false, brightness: 100 });
  });
});
