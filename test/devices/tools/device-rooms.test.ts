import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { startInProcessDevices } from '../../../devices/simulator/start-in-process-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import type { PromptDevicesMode } from '../../../core/prompt/rooms-section.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const fast = { helloTimeoutMs: 1000, reconnectIntervalMs: 20, callTimeoutMs: 3000, waysIn: builtinWaysIn() };
// The simulator names its devices by kind and number.
const ROOMS = new Map([
  ['lamp-1', 'Kitchen'],
  ['lamp-2', 'Kitchen'],
  ['thermometer-1', 'Hall'],
]);

async function home(mode: PromptDevicesMode) {
  const sim = owned.add(startInProcessDevices({ kinds: ['lamp', 'lamp', 'lamp', 'thermometer'], latencyMs: 0 }));
  const registry = owned.add(new DeviceRegistry(fast));
  for (const device of sim.devices) await registry.attachConnector(device.connector, { grant: 'all' });
  return createDevicesPlugin(registry, { rooms: () => ROOMS, promptDevices: () => mode });
}

describe('rooms in the devices plugin', () => {
  it('lists every device, then one line per room, and offers no room tool (all)', async () => {
    const plugin = await home('all');
    expect(plugin.promptSections!().map((section) => section.text)).toEqual([
      [
        'Devices (pass device_id to device tools):',
        '- lamp-1 (lamp): online',
        '- lamp-2 (lamp): online',
        '- lamp-3 (lamp): online',
        '- thermometer-1 (thermometer): online',
        'Rooms (for a whole room, call the tool once for each of its devices, all in one reply):',
        '- Hall: thermometer-1',
        '- Kitchen: lamp-1, lamp-2',
      ].join('\n'),
    ]);
    expect(plugin.tools().map((tool) => tool.name)).not.toContain('home_list_devices');
    expect(plugin.tools().find((tool) => tool.name === 'lamp__set')?.description).toContain('lamp-1, lamp-2, lamp-3');
  });

  it('lists rooms with counts and reads a room with home_list_devices, read-only and parallel-safe (rooms-first)', async () => {
    const plugin = await home('rooms-first');
    const [section] = plugin.promptSections!();
    expect(section?.text.split('\n').slice(1)).toEqual([
      '- Hall: 1 device (thermometer 1)',
      '- Kitchen: 2 devices (lamp 2)',
      '- (no room): 1 device (lamp 1)',
    ]);
    // The batch rules are the tool-execution section's to say: this one does not speak of them.
    expect(section?.text).not.toMatch(/parallel/i);
    const list = plugin.tools().find((tool) => tool.name === 'home_list_devices')!;
    expect([list.parallelSafe, list.serial, list.readOnly]).toEqual([true, false, true]);
    expect(plugin.tools().find((tool) => tool.name === 'lamp__set')?.description).toContain(
      "Devices: 3 (home_list_devices lists a room's).",
    );
    expect(await runTool(list, { room: 'kitchen' })).toEqual({
      ok: true,
      value: {
        room: 'Kitchen',
        devices: [
          { id: 'lamp-1', kind: 'lamp', state: 'online' },
          { id: 'lamp-2', kind: 'lamp', state: 'online' },
        ],
      },
    });
    expect(await runTool(list, { room: '' })).toMatchObject({ ok: true, value: { devices: [{ id: 'lamp-3' }] } });
    expect(await runTool(list, { room: 'Attic' })).toMatchObject({
      ok: false,
      field: 'room',
      detail: 'no device is in a room "Attic"',
    });
  });
});
