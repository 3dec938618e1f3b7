import { afterEach, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import type { SimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { displayChannels } from '../../../devices/tools/display-channels.ts';
import { toolCallContext, runTool } from '../../helpers/device-tool-context.ts';
import { Disposables } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const fast = { helloTimeoutMs: 1000, reconnectIntervalMs: 20, callTimeoutMs: 3000, waysIn: builtinWaysIn() };

async function setUp(
  kinds: Parameters<typeof startSimulatedDevices>[0]['kinds'],
  grants: Record<string, 'all' | string[]>,
): Promise<{ sim: SimulatedDevices; registry: DeviceRegistry; tool(name: string): ToolDefinition }> {
  const sim = owned.add(await startSimulatedDevices({ kinds, latencyMs: 0 }));
  const registry = owned.add(new DeviceRegistry(fast));
  for (const device of sim.devices) await registry.attach(device.path, { grant: grants[device.id] ?? [] });
  const plugin = createDevicesPlugin(registry);
  return {
    sim,
    registry,
    tool(name) {
      const found = plugin.tools().find((tool) => tool.name === name);
      if (!found)
        throw new Error(
          `no tool ${name} among ${plugin
            .tools()
            .map((tool) => tool.name)
            .join(', ')}`,
        );
      return found;
    },
  };
}

describe('createDevicesPlugin', () => {
  it('derives one tool per kind and action with a device_id enum of the authorised devices', async () => {
    const { registry } = await setUp(['lamp', 'lamp', 'thermometer', 'display'], {
      'lamp-1': 'all',
      'lamp-2': 'all',
      'thermometer-1': 'all',
      'display-1': 'all',
    });
    const tools = createDevicesPlugin(registry).tools();
    expect(tools.map((tool) => tool.name)).toEqual(['display__show', 'lamp__get', 'lamp__set', 'thermometer__read']);
    const set = tools.find((tool) => tool.name === 'lamp__set')!;
    expect(set.parameters.properties?.device_id).toMatchObject({ type: 'string', enum: ['lamp-1', 'lamp-2'] });
    expect(set.parameters.properties?.brightness).toEqual({ type: 'integer', minimum: 0, maximum: 100 });
    expect(set.description).toContain('lamp-1, lamp-2');
    expect([set.parallelSafe, set.serial]).toEqual([true, false]);
  });

  it('lists every paired device in the prompt with the actions the person has not granted', async () => {
    const { registry } = await setUp(['lamp', 'lamp', 'thermometer'], { 'lamp-1': 'all', 'lamp-2': ['set'] });
    const sections = createDevicesPlugin(registry).promptSections!();
    expect(sections.map((section) => section.text)).toEqual([
      [
        'Devices (pass device_id to device tools):',
        '- lamp-1 (lamp): online',
        '- lamp-2 (lamp): online; not granted: get',
        '- thermometer-1 (thermometer): online; not granted: read',
      ].join('\n'),
    ]);
  });

  it('runs a granted call on the named device', async () => {
    const { sim, tool } = await setUp(['lamp', 'lamp'], { 'lamp-1': 'all', 'lamp-2': 'all' });
    expect(await runTool(tool('lamp__set'), { device_id: 'lamp-2', on: true })).toEqual({
      ok: true,
      value: { device_id: 'lamp-2', result: { on: true, brightness: 100 } },
    });
    expect(sim.device('lamp-2').firmware.stats.calls).toBe(1);
    expect(sim.device('lamp-1').firmware.stats.calls).toBe(0);
  });

  it('refuses an action that is not granted as unauthorized and never reaches the device', async () => {
    const { sim, tool } = await setUp(['lamp', 'lamp'], { 'lamp-1': ['get'], 'lamp-2': 'all' });
    expect(await runTool(tool('lamp__set'), { device_id: 'lamp-1', on: true })).toMatchObject({
      ok: false,
      reason: 'unauthorized',
      field: 'device_id',
    });
    expect(await runTool(tool('lamp__get'), { device_id: 'lamp-1' })).toMatchObject({ ok: true });
    expect(sim.device('lamp-1').firmware.log.filter((entry) => entry.tool === 'set')).toEqual([]);
  });

  it('refuses an unknown device and a device of another kind as unauthorized', async () => {
    const { tool } = await setUp(['lamp', 'thermometer'], { 'lamp-1': 'all', 'thermometer-1': 'all' });
    expect(await runTool(tool('lamp__get'), { device_id: 'lamp-9' })).toMatchObject({
      ok: false,
      reason: 'unauthorized',
    });
    expect(await runTool(tool('lamp__get'), { device_id: 'thermometer-1' })).toMatchObject({
      ok: false,
      reason: 'unauthorized',
    });
  });

  it('resolves a missing device_id to the only authorised device of the kind', async () => {
    const { tool } = await setUp(['lamp', 'lamp'], { 'lamp-1': [], 'lamp-2': 'all' });
    expect(await runTool(tool('lamp__set'), { brightness: 10 })).toEqual({
      ok: true,
      value: { device_id: 'lamp-2', result: { on: false, brightness: 10 } },
    });
  });

  it('asks for device_id when two devices of the kind are authorised', async () => {
    const { sim, tool } = await setUp(['lamp', 'lamp'], { 'lamp-1': 'all', 'lamp-2': 'all' });
    expect(await runTool(tool('lamp__set'), { on: true })).toMatchObject({
      ok: false,
      reason: 'required',
      field: 'device_id',
    });
    expect(sim.devices.map((device) => device.firmware.stats.calls)).toEqual([0, 0]);
  });

  it('refuses in the handler too, so a grant revoked after the gate is still enforced', async () => {
    const { sim, registry, tool } = await setUp(['lamp'], { 'lamp-1': 'all' });
    const set = tool('lamp__set');
    expect(await set.canUse?.({ conversationId: 'c', caller: 'agent' }, { device_id: 'lamp-1', on: true })).toBeNull();
    registry.setGrant('lamp-1', ['get']);
    const refused = await Promise.resolve(
      set.handler({ device_id: 'lamp-1', on: true }, toolCallContext({ toolName: 'lamp__set' })),
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ reason: 'unauthorized' });
    expect(sim.device('lamp-1').firmware.stats.calls).toBe(0);
  });

  it('reports device_offline for an authorised device whose port is gone', async () => {
    const { sim, registry, tool } = await setUp(['lamp'], { 'lamp-1': 'all' });
    const gone = new Promise<void>((resolve) =>
      registry.onChange(() => registry.list()[0]?.status === 'offline' && resolve()),
    );
    await sim.unplug('lamp-1');
    await gone;
    expect(await runTool(tool('lamp__get'), { device_id: 'lamp-1' })).toMatchObject({
      ok: false,
      reason: 'device_offline',
    });
  });

  it('offers each authorised display as an output channel that shows the text', async () => {
    const { sim, registry } = await setUp(['display', 'display'], { 'display-1': 'all', 'display-2': ['show'] });
    const channels = displayChannels(registry);
    expect(channels.map((channel) => channel.name)).toEqual(['display_1', 'display_2']);
    await channels[1]!.send('Dinner is ready', toolCallContext({ toolName: 'output_send__display_2' }));
    expect((sim.device('display-2').firmware.model as unknown as { state: { text: string } }).state.text).toBe(
      'Dinner is ready',
    );
  });

  it('lists no channel and no tool for a display without grants', async () => {
    const { registry } = await setUp(['display'], {});
    expect(displayChannels(registry)).toEqual([]);
    expect(createDevicesPlugin(registry).tools()).toEqual([]);
  });

  it('refuses a direct registry call to an unknown device as unauthorized', async () => {
    const { registry } = await setUp(['lamp'], { 'lamp-1': 'all' });
    await expect(registry.call('lamp-7', 'get', {})).rejects.toMatchObject({ reason: 'unauthorized' });
  });

  it('refuses a send on a display channel whose grant was revoked after listing', async () => {
    const { sim, registry } = await setUp(['display'], { 'display-1': 'all' });
    const [channel] = displayChannels(registry);
    registry.setGrant('display-1', []);
    await expect(
      Promise.resolve(channel!.send('hi', toolCallContext({ toolName: 'output_send__display_1' }))),
    ).rejects.toMatchObject({ reason: 'unauthorized' });
    expect(sim.device('display-1').firmware.stats.calls).toBe(0);
  });
});
