import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { announceSimulator } from '../../../devices/simulator/simulator-index.ts';
import { devicesWhen, startTestHost, tempDataDir } from './host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("a paired device's activity in devices/list", () => {
  it('keeps its last ten events, and says what went wrong when its port goes away', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const sim = await startSimulatedDevices({ kinds: ['door_sensor'], latencyMs: 0 });
    cleanups.push(() => sim.close());
    // Announced as `home-agent sim` announces its ports: the window's API opens only those and serial ports.
    const index = mkdtempSync(path.join(tmpdir(), 'home-agent-sim-index-'));
    cleanups.push(() => rmSync(index, { recursive: true, force: true }));
    const announcement = await announceSimulator({
      devices: sim.devices.map((device) => ({ path: device.path, id: device.id, kind: device.kind })),
      directory: index,
    });
    cleanups.push(() => announcement.close());
    const previousIndex = process.env.HOME_AGENT_SIM_INDEX;
    process.env.HOME_AGENT_SIM_INDEX = index;
    cleanups.push(() => {
      if (previousIndex === undefined) delete process.env.HOME_AGENT_SIM_INDEX;
      else process.env.HOME_AGENT_SIM_INDEX = previousIndex;
    });
    const { host, notices } = await startTestHost({ dataDir: data.dir });
    cleanups.push(() => host.dispose());
    const door = sim.devices[0]!;
    await host.handlers['devices/pair']({
      path: door.path,
      identity: { id: 'door_sensor-1', kind: 'door_sensor', model: 'SimDoor 1', firmware: '1.0.0' },
      alias: 'Front door',
    });
    await devicesWhen(host, (devices) => devices[0]?.online === true);
    const model = door.firmware.model as unknown as { setOpen(open: boolean): void };
    for (let n = 0; n < 12; n++) model.setOpen(n % 2 === 0);
    const [withEvents] = await devicesWhen(host, (devices) => devices[0]?.recentEvents?.length === 10);
    // Twelve changes, alternating from open: the ten kept start at the third (open again).
    expect(withEvents?.recentEvents?.map((event) => event.data.open)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(notices.filter((notice) => notice.type === 'device/event')).toHaveLength(12);
    expect(withEvents?.lastError).toBeUndefined();

    await sim.unplug('door_sensor-1');
    const [gone] = await devicesWhen(
      host,
      (devices) => devices[0]?.status === 'offline' && devices[0].lastError !== undefined,
    );
    expect(gone?.lastError?.message).toBe(`lost ${door.path}: the port closed or went away`);
  });
});
