import { afterEach, describe, expect, it } from 'vitest';
import { AT_RELAY_BOARD_PROFILE } from '../../../devices/profiles/at-relay-board-profile.ts';
import { matchResponse, renderCommand } from '../../../devices/profiles/line-profile-codec.ts';
import { parseLineProfile } from '../../../devices/profiles/line-profile-schema.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const [setTool, getTool] = AT_RELAY_BOARD_PROFILE.tools as [
  (typeof AT_RELAY_BOARD_PROFILE.tools)[0],
  (typeof AT_RELAY_BOARD_PROFILE.tools)[0],
];

describe('line profile codec', () => {
  it('renders AT commands from templates and formats', () => {
    expect(renderCommand(setTool, { channel: 1, on: true })).toBe('AT+R1=1');
    expect(renderCommand(setTool, { channel: 4, on: false })).toBe('AT+R4=0');
    expect(renderCommand(getTool, { channel: 2 })).toBe('AT+R2?');
  });

  it('refuses values outside the format table and missing arguments', () => {
    expect(() => renderCommand(setTool, { channel: 5, on: true })).toThrow(
      expect.objectContaining({ reason: 'type', field: 'channel' }),
    );
    expect(() => renderCommand(setTool, { channel: 1 })).toThrow(
      expect.objectContaining({ reason: 'required', field: 'on' }),
    );
    expect(() => renderCommand({ ...getTool, formats: {} }, { channel: '1\r\nAT+R2=1' })).toThrow(
      expect.objectContaining({ reason: 'type' }),
    );
  });

  it('reads typed captures and error lines', () => {
    expect(matchResponse(getTool.responses, '+R3=1')).toEqual({
      matched: true,
      ok: true,
      result: { channel: 3, on: true },
    });
    expect(matchResponse(getTool.responses, 'ERROR:busy')).toEqual({
      matched: true,
      ok: false,
      reason: 'failed',
      detail: 'busy',
    });
    expect(matchResponse(getTool.responses, 'RING')).toEqual({ matched: false });
  });

  it('rejects a profile with a bad shape or a broken pattern', () => {
    expect(() => parseLineProfile({ ...AT_RELAY_BOARD_PROFILE, kind: 'Relay Board' })).toThrow(/kind/);
    const broken = { ...AT_RELAY_BOARD_PROFILE, tools: [{ ...setTool, responses: [{ pattern: '(' }] }] };
    expect(() => parseLineProfile(broken)).toThrow(SyntaxError);
  });
});

describe('profileConnector', () => {
  it('drives a simulated AT relay board over a pseudo-terminal as relay__set / relay__get', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['relay'], latencyMs: 0 }));
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const device = sim.devices[0]!;
    expect(
      await registry.attach(device.path, {
        grant: 'all',
        profile: { protocol: 'lines', name: 'at-relay-4', profile: device.profile! },
      }),
    ).toMatchObject({
      id: 'relay-1',
      kind: 'relay',
      model: 'AT-RELAY-4',
      firmware: '1.4.0',
      tools: ['set', 'get'],
    });
    const tools = createDevicesPlugin(registry).tools();
    expect(tools.map((tool) => tool.name)).toEqual(['relay__get', 'relay__set']);
    const set = tools[1]!;
    expect(await runTool(set, { channel: 3, on: true })).toEqual({
      ok: true,
      value: { device_id: 'relay-1', result: { channel: 3, on: true } },
    });
    expect(await runTool(tools[0]!, { channel: 3 })).toEqual({
      ok: true,
      value: { device_id: 'relay-1', result: { channel: 3, on: true } },
    });
    expect(await runTool(tools[0]!, { channel: 2 })).toEqual({
      ok: true,
      value: { device_id: 'relay-1', result: { channel: 2, on: false } },
    });
    expect((device.firmware.model as unknown as { state: { channels: boolean[] } }).state.channels).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect(await runTool(set, { channel: 9, on: true })).toMatchObject({ ok: false, reason: 'type', field: 'channel' });
  });
});
